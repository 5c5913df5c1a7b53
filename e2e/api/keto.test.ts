import { Configuration, PermissionApi, RelationshipApi } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { failure } from '../support/ory.js';

let portaal: Portaal;
let relationships: RelationshipApi;
let permissions: PermissionApi;
beforeAll(async () => {
  portaal = await startPortaal();
  const configuration = new Configuration({ basePath: portaal.adminUrl });
  relationships = new RelationshipApi(configuration);
  permissions = new PermissionApi(configuration);
});
afterAll(async () => {
  await portaal?.stop();
});

const user = () => `user-${Math.random().toString(36).slice(2, 10)}`;

describe('Keto-compatible relation tuples', () => {
  it('creates a tuple idempotently (201 with Location) and lists it', async () => {
    const subject = user();
    const body = { namespace: 'organizations', object: 'voorbeeldstad', relation: 'issuer', subject_id: subject };
    const created = await relationships.createRelationship({ createRelationshipBody: body });
    expect(created.status).toBe(201);
    expect(created.data).toEqual(body);
    expect(created.headers.location).toContain('/relation-tuples?namespace=organizations');
    await relationships.createRelationship({ createRelationshipBody: body });
    const listed = await relationships.getRelationships({ namespace: 'organizations', subjectId: subject });
    expect(listed.data.relation_tuples).toEqual([body]);
    expect(listed.data.next_page_token).toBe('');
  });

  it('pages with next_page_token until it is empty', async () => {
    const object = `org${Date.now()}`;
    const subjects = Array.from({ length: 7 }, user);
    for (const subject_id of subjects) {
      await relationships.createRelationship({
        createRelationshipBody: { namespace: 'organizations', object, relation: 'issuer', subject_id },
      });
    }
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await relationships.getRelationships({
        namespace: 'organizations',
        object,
        pageSize: 3,
        pageToken: token,
      });
      seen.push(...(page.data.relation_tuples ?? []).map((t) => t.subject_id!));
      token = page.data.next_page_token || undefined;
    } while (token);
    expect(seen.sort()).toEqual(subjects.sort());
    expect(
      (await failure(relationships.getRelationships({ namespace: 'organizations', pageToken: 'gemaakt' }))).status,
    ).toBe(400);
  });

  it('patches as one transaction and refuses the whole patch on a bad delta', async () => {
    const subject = user();
    const tuple = (object: string) => ({ namespace: 'subdivisions', object, relation: 'issuer', subject_id: subject });
    await relationships.patchRelationships({
      relationshipPatch: [
        { action: 'insert', relation_tuple: tuple('gezondheid_voorbeeldstad') },
        { action: 'insert', relation_tuple: tuple('veiligheid_voorbeeldstad') },
      ],
    });
    const bad = await failure(
      relationships.patchRelationships({
        relationshipPatch: [
          { action: 'delete', relation_tuple: tuple('gezondheid_voorbeeldstad') },
          {
            action: 'insert',
            relation_tuple: { namespace: 'onbekend', object: 'x', relation: 'y', subject_id: subject },
          },
        ],
      }),
    );
    expect(bad.status).toBe(404);
    expect(bad.body.error.reason).toBe('Unknown namespace with name "onbekend".');
    const listed = await relationships.getRelationships({ namespace: 'subdivisions', subjectId: subject });
    expect(listed.data.relation_tuples?.map((t) => t.object).sort()).toEqual([
      'gezondheid_voorbeeldstad',
      'veiligheid_voorbeeldstad',
    ]);
  });

  it('deletes every tuple matching a query, and needs the namespace', async () => {
    const subject = user();
    for (const relation of ['issuer', 'admin']) {
      await relationships.createRelationship({
        createRelationshipBody: { namespace: 'organizations', object: 'wegdorp', relation, subject_id: subject },
      });
    }
    expect(
      (await relationships.deleteRelationships({ namespace: 'organizations', object: 'wegdorp', subjectId: subject }))
        .status,
    ).toBe(204);
    expect(
      (await relationships.getRelationships({ namespace: 'organizations', subjectId: subject })).data.relation_tuples,
    ).toEqual([]);
    expect((await failure(relationships.deleteRelationships({ subjectId: subject }))).status).toBe(400);
  });

  it('refuses incomplete tuples and the legacy subject key with 400', async () => {
    const incomplete = await failure(
      relationships.createRelationship({
        createRelationshipBody: { namespace: 'organizations', object: 'x', relation: 'issuer' },
      }),
    );
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.error.message).toBe(
      'incomplete tuple, provide "namespace", "object", "relation", and a subject',
    );
    const legacy = await failure(
      relationships.createRelationship({
        createRelationshipBody: { namespace: 'organizations', object: 'x', relation: 'issuer', subject: 'u' } as never,
      }),
    );
    expect(legacy.status).toBe(400);
  });

  it('checks direct tuples, the computed access relation and subject sets', async () => {
    const subject = user();
    await relationships.createRelationship({
      createRelationshipBody: {
        namespace: 'organizations',
        object: 'dijkstad',
        relation: 'issuer',
        subject_id: subject,
      },
    });
    await relationships.createRelationship({
      createRelationshipBody: {
        namespace: 'subdivisions',
        object: 'ruimte_dijkstad',
        relation: 'access',
        subject_set: { namespace: 'organizations', object: 'dijkstad', relation: 'access' },
      },
    });
    const ask = (namespace: string, object: string, relation: string) =>
      permissions.checkPermission({ namespace, object, relation, subjectId: subject });
    expect((await ask('organizations', 'dijkstad', 'issuer')).data.allowed).toBe(true);
    expect((await ask('organizations', 'dijkstad', 'access')).data.allowed).toBe(true);
    expect((await ask('organizations', 'dijkstad', 'admin')).data.allowed).toBe(false);
    expect((await ask('subdivisions', 'ruimte_dijkstad', 'access')).data.allowed).toBe(true);
    expect((await ask('organizations', 'elders', 'access')).data.allowed).toBe(false);
    expect((await ask('onbekend', 'dijkstad', 'access')).data.allowed).toBe(false);

    const denied = await failure(
      permissions.checkPermissionOrError({
        namespace: 'organizations',
        object: 'dijkstad',
        relation: 'admin',
        subjectId: subject,
      }),
    );
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ allowed: false });
    const posted = await permissions.postCheckPermission({
      postCheckPermissionBody: {
        namespace: 'organizations',
        object: 'dijkstad',
        relation: 'access',
        subject_id: subject,
      },
    });
    expect(posted.data.allowed).toBe(true);
    const batch = await permissions.batchCheckPermission({
      batchCheckPermissionBody: {
        tuples: [
          { namespace: 'organizations', object: 'dijkstad', relation: 'access', subject_id: subject },
          { namespace: 'organizations', object: 'dijkstad', relation: 'admin', subject_id: subject },
        ],
      },
    });
    expect(batch.data.results.map((r) => r.allowed)).toEqual([true, false]);
  });

  it('lists the namespaces', async () => {
    const { data } = await relationships.listRelationshipNamespaces();
    expect(data.namespaces?.map((n) => n.name).sort()).toEqual(['organizations', 'programme', 'subdivisions']);
  });
});
