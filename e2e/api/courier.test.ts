import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPortaal, type Portaal } from '../support/portaal.js';
import { csrfTokenOf, explained, identityApi, newBrowser } from '../support/ory.js';
import { createPasswordIdentity } from '../support/identities.js';
import { portaalCli } from '../support/portal-users.js';

let withSmtp: Portaal;
let withoutSmtp: Portaal;
beforeAll(async () => {
  withSmtp = await startPortaal();
  withoutSmtp = await startPortaal({ smtp: false, env: { LOG_LEVEL: 'info' } });
});
afterAll(async () => {
  await withSmtp?.stop();
  await withoutSmtp?.stop();
});

async function askRecoveryCode(portaal: Portaal, email: string) {
  const browser = newBrowser(portaal.publicUrl);
  const flow = await explained(browser.frontend.createBrowserRecoveryFlow({}));
  await explained(
    browser.frontend.updateRecoveryFlow({
      flow: flow.id,
      updateRecoveryFlowBody: { method: 'code', email, csrf_token: csrfTokenOf(flow) },
    }),
  );
}

describe('courier', () => {
  it('retries a mail the SMTP server refused until it is delivered', async () => {
    const user = await createPasswordIdentity(identityApi(withSmtp.adminUrl));
    withSmtp.mail.failNext(1);
    const since = new Date();
    await askRecoveryCode(withSmtp, user.email);
    const mail = await withSmtp.mail.waitFor(user.email, { since, timeoutMs: 30_000 });
    expect(mail.subject).toBe('Je herstelcode voor het Datavoorzieningen Portaal');
    expect(withSmtp.mail.to(user.email).filter((m) => m.receivedAt >= since)).toHaveLength(1);
  });

  it('shows the queue by state in the metrics and lists mails without their bodies', async () => {
    const user = await createPasswordIdentity(identityApi(withSmtp.adminUrl));
    const since = new Date();
    await askRecoveryCode(withSmtp, user.email);
    await withSmtp.mail.waitFor(user.email, { since, timeoutMs: 30_000 });
    await vi.waitFor(
      () => {
        const sent = portaalCli(withSmtp, ['mail', 'list', '--status', 'sent']).stdout.trim().split('\n');
        const row = sent.map((line) => JSON.parse(line)).find((m) => m.recipient === user.email);
        expect(row).toMatchObject({ template_type: 'recovery_code', status: 'sent' });
        expect(row.body).toBeUndefined();
      },
      { timeout: 10_000 },
    );
    const metrics = await (await fetch(`${withSmtp.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/^portaal_mails\{status="sent"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^portaal_mails\{status="abandoned"\} 0$/m);
    expect(metrics).toMatch(/^portaal_database_up 1$/m);
    expect(portaalCli(withSmtp, ['mail', 'retry']).stdout).toContain('0 opgegeven e-mail(s) opnieuw in de wachtrij');
    expect(portaalCli(withSmtp, ['mail', 'list', '--status', 'kwijt']).status).toBe(2);
  });

  it('sends a mail again, once, when the process died between the SMTP acceptance and marking it sent', async () => {
    const portaal = await startPortaal({ env: { MAIL_SEND_LEASE: '2s' } });
    try {
      const user = await createPasswordIdentity(identityApi(portaal.adminUrl));
      // Frozen before the server's acceptance reaches it, the process can never mark the mail sent.
      portaal.mail.beforeNextAcceptance(() => portaal.freeze());
      const since = new Date();
      await askRecoveryCode(portaal, user.email);
      const first = await portaal.mail.waitFor(user.email, { since, timeoutMs: 30_000 });
      await portaal.kill();
      await portaal.restart();

      const again = await portaal.mail.waitFor(user.email, { since, filter: (m) => m !== first, timeoutMs: 30_000 });
      expect(again.text).toBe(first.text);
      await vi.waitFor(
        () => {
          const sent = portaalCli(portaal, ['mail', 'list', '--status', 'sent']).stdout.trim().split('\n');
          const mails = sent.map((line) => JSON.parse(line)).filter((m) => m.recipient === user.email);
          expect(
            mails.map((m) => m.send_count),
            'one mail, counted as sent twice',
          ).toEqual([2]);
        },
        { timeout: 10_000 },
      );
      // Marked sent now: no third copy once the lease would have passed again.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(portaal.mail.to(user.email)).toHaveLength(2);
    } finally {
      await portaal.stop();
    }
  });

  it('keeps mails in the development mailbox without SMTP', async () => {
    const user = await createPasswordIdentity(identityApi(withoutSmtp.adminUrl));
    await askRecoveryCode(withoutSmtp, user.email);
    const list = (await (
      await fetch(`${withoutSmtp.adminUrl}/mail/messages.json?to=${encodeURIComponent(user.email)}`)
    ).json()) as {
      id: string;
      subject: string;
      text: string;
    }[];
    expect(list).toHaveLength(1);
    expect(list[0]!.text).toMatch(/^\d{6}$/m);
    const page = await fetch(`${withoutSmtp.adminUrl}/mail/${list[0]!.id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Je herstelcode voor het Datavoorzieningen Portaal');
    const summary = `mail to ${user.email}: Je herstelcode voor het Datavoorzieningen Portaal`;
    await vi.waitFor(() => expect(withoutSmtp.output()).toContain(summary), { timeout: 5_000 });
    expect(withoutSmtp.output()).toContain(`mail to ${user.email}: Je herstelcode voor het Datavoorzieningen Portaal`);
    // The mailbox lives on the admin listener only: the public listener answers with the web app's 404.
    const onPublic = await fetch(`${withoutSmtp.publicUrl}/mail`);
    expect(onPublic.status).toBe(404);
    expect(await onPublic.text()).not.toContain('Je herstelcode');
  });
});
