// The Keto namespaces of the Datavoorzieningen Portaal in the Ory Permission Language (OPL), for Ory Keto v26
// (deploy/ory/keto.yml). They hold the tuples the portal writes and reads (docs/architecture.md#relation-tuples):
//
//   organizations:<org>#issuer@<user>              a member, added by the organisation's administrator
//   organizations:<org>#access@<user>              a member added otherwise (imports)
//   organizations:<org>#admin@<user>               an administrator of that organisation's users
//   subdivisions:<role>_<org>#issuer@<user>        a data role, given by the organisation's administrator
//   subdivisions:<role>_<org>#access@<user>        a data role given otherwise (imports)
//   programme:portaal#admin@<user>                 a programme administrator ('Programmabeheer')
//
// `access` is both: a relation the portal may store and the permission a check asks for, which holds for `issuer`
// too. OPL cannot declare one name under both `related` and `permits` (Keto uses the first it finds and ignores the
// other), so `access` is declared as a permission only. Keto outside strict mode also honours stored `access`
// tuples of a permission, so a check of `access` gives what the embedded store gives (`IMPLIED_BY` in
// packages/relations/src/tuples/check.ts). deploy/ory/README.md explains the choice.
//
// Keto reads only the classes; the import gives editors the types (npm package @ory/keto-namespace-types).
import type { Context, Namespace } from '@ory/keto-namespace-types';

// Subjects are identity ids (Kratos identities), written as plain `subject_id`s.
export class User implements Namespace {}

export class organizations implements Namespace {
  related: {
    issuer: User[];
    admin: User[];
  };

  permits = {
    access: (ctx: Context): boolean => this.related.issuer.includes(ctx.subject),
  };
}

export class subdivisions implements Namespace {
  related: {
    issuer: User[];
  };

  permits = {
    access: (ctx: Context): boolean => this.related.issuer.includes(ctx.subject),
  };
}

export class programme implements Namespace {
  related: {
    admin: User[];
  };
}
