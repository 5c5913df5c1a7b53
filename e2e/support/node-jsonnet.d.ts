// The part of @hanazuki/node-jsonnet the tests use. The package ships its own types, but its package.json `exports`
// does not point at them, so TypeScript's module resolution does not find them.
declare module '@hanazuki/node-jsonnet' {
  export class Jsonnet {
    tlaCode(key: string, value: string): this;
    evaluateFile(file: string): Promise<string>;
  }
}
