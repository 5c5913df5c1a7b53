export * from './mail-templates.js';
