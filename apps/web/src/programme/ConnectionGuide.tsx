import type { ReactNode } from 'react';
import type { OidcClient, ProgrammeService } from './services-api';
import './services.css';

const SCOPES = 'openid email profile organisations';
/** Stands in for the client secret in every example: the secret itself is never put on the page twice. */
const SECRET = '<het clientgeheim>';

/** An example to copy, in a box of its own that scrolls sideways instead of the page. */
function Snippet({ label, children }: { label: string; children: string }) {
  return (
    // biome-ignore lint/a11y: a focusable region lets keyboard users scroll an example wider than the screen
    <pre className="dvp-code" role="region" aria-label={label} tabIndex={0}>
      <code>{children}</code>
    </pre>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <details className="dvp-connection-guide__section">
      <summary>{title}</summary>
      <div className="dvp-connection-guide__body">{children}</div>
    </details>
  );
}

/** The service's own values, in the order a library's settings ask for them. */
function oidcValues(oidc: OidcClient, issuer: string): [string, string][] {
  const confidential = oidc.type === 'confidential';
  const values: [string, string | undefined][] = [
    ['Issuer', issuer],
    ['Discovery-URL', `${issuer}/.well-known/openid-configuration`],
    ['Client-id', oidc.clientId],
    ['Clientgeheim', confidential ? SECRET : undefined],
    ['Redirect-URI', oidc.redirectUris[0]],
    ['Post-logout-redirect-URI', oidc.postLogoutRedirectUris[0]],
    ['Back-channel-logout-URI', oidc.backchannelLogoutUri],
    ['Scopes', SCOPES],
    ['Authenticatie bij het token-endpoint', confidential ? 'client_secret_basic' : 'none (openbare client)'],
    ['PKCE', confidential ? 'S256 (aanbevolen)' : 'S256 (verplicht)'],
  ];
  return values.filter((value): value is [string, string] => value[1] !== undefined);
}

function environment(oidc: OidcClient, issuer: string): string {
  const confidential = oidc.type === 'confidential';
  return [
    `OIDC_ISSUER=${issuer}`,
    `OIDC_CLIENT_ID=${oidc.clientId}`,
    confidential && `OIDC_CLIENT_SECRET=${SECRET}`,
    oidc.redirectUris[0] && `OIDC_REDIRECT_URI=${oidc.redirectUris[0]}`,
    oidc.postLogoutRedirectUris[0] && `OIDC_POST_LOGOUT_REDIRECT_URI=${oidc.postLogoutRedirectUris[0]}`,
    `OIDC_SCOPES="${SCOPES}"`,
    `OIDC_TOKEN_ENDPOINT_AUTH_METHOD=${confidential ? 'client_secret_basic' : 'none'}`,
    'OIDC_PKCE_METHOD=S256',
  ]
    .filter(Boolean)
    .join('\n');
}

function apache(oidc: OidcClient, issuer: string): string {
  return [
    `OIDCProviderMetadataURL ${issuer}/.well-known/openid-configuration`,
    `OIDCClientID ${oidc.clientId}`,
    `OIDCClientSecret "${SECRET}"`,
    'OIDCProviderTokenEndpointAuth client_secret_basic',
    `OIDCRedirectURI ${oidc.redirectUris[0] ?? '<een redirect-URI van de datavoorziening>'}`,
    'OIDCCryptoPassphrase "<een eigen willekeurige waarde>"',
    `OIDCScope "${SCOPES}"`,
    'OIDCPKCEMethod S256',
    'OIDCRemoteUserClaim sub',
    'OIDCPassClaimsAs headers',
    '',
    '<Location />',
    '  AuthType openid-connect',
    '  Require valid-user',
    '</Location>',
  ].join('\n');
}

const HEADERS = ['User-Id', 'Email', 'Name', 'Organisation', 'Data-Roles'];
/** 'Data-Roles' as nginx names it in its variables: 'data_roles'. */
const snake = (header: string) => header.toLowerCase().replace('-', '_');

function nginx(service: ProgrammeService, portalOrigin: string): string {
  const check = `${portalOrigin}/api/forward-auth?service=${encodeURIComponent(service.id)}`;
  return [
    'location / {',
    '  auth_request /_portaal/forward-auth;',
    ...HEADERS.map(
      (header) => `  auth_request_set $portaal_${snake(header)} $upstream_http_x_portaal_${snake(header)};`,
    ),
    '  auth_request_set $portaal_sign_in $upstream_http_x_portaal_sign_in;',
    '  error_page 401 = @portaal_sign_in;',
    '',
    '  # het adres van de datavoorziening zelf',
    '  proxy_pass http://127.0.0.1:8080;',
    ...HEADERS.map((header) => `  proxy_set_header X-Portaal-${header} $portaal_${snake(header)};`),
    '}',
    '',
    'location = /_portaal/forward-auth {',
    '  internal;',
    `  proxy_pass ${check};`,
    ...(portalOrigin.startsWith('https:') ? ['  proxy_ssl_server_name on;'] : []),
    '  proxy_method GET;',
    '  proxy_pass_request_body off;',
    '  proxy_set_header Content-Length "";',
    '  proxy_set_header X-Forwarded-Host $http_host;',
    '  proxy_set_header X-Forwarded-Proto $scheme;',
    '  proxy_set_header X-Forwarded-Uri $request_uri;',
    '  proxy_set_header X-Forwarded-Method $request_method;',
    '}',
    '',
    'location @portaal_sign_in {',
    '  return 302 $portaal_sign_in;',
    '}',
  ].join('\n');
}

/**
 * How to connect a data service to the portal, filled in with its own values: with an OpenID Connect library, with
 * Apache and mod_auth_openidc (a confidential client only) and with nginx (forward-auth), each a disclosure shown only
 * where it applies. The client secret is never in it, only a placeholder.
 */
export function ConnectionGuide({ service, portalOrigin }: { service: ProgrammeService; portalOrigin: string }) {
  const { oidc } = service;
  const issuer = `${portalOrigin}/oidc`;
  if (!oidc && !service.forwardAuth)
    return (
      <p className="utrecht-paragraph">
        Deze datavoorziening heeft geen koppeling: zet forward-auth aan of voeg een OpenID Connect-client toe.
      </p>
    );
  return (
    <div className="dvp-connection-guide">
      {oidc && (
        <Section title="Met een OpenID Connect-bibliotheek">
          <p className="utrecht-paragraph">
            Geef de OpenID Connect-bibliotheek van {service.name} deze gegevens. De meeste bibliotheken halen de rest
            zelf op bij de discovery-URL.
            {oidc.type === 'public' && ' Een openbare client heeft geen geheim en moet PKCE met S256 gebruiken.'}
          </p>
          <dl className="dvp-service-values">
            {oidcValues(oidc, issuer).map(([term, value]) => (
              <div key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <p className="utrecht-paragraph">Bijvoorbeeld als omgevingsvariabelen:</p>
          <Snippet label="Voorbeeld: omgevingsvariabelen">{environment(oidc, issuer)}</Snippet>
        </Section>
      )}
      {oidc?.type === 'confidential' && (
        <Section title="Met Apache en mod_auth_openidc">
          <p className="utrecht-paragraph">
            Heeft {service.name} zelf geen OpenID Connect, zet dan Apache met mod_auth_openidc ervoor. De module laat
            mensen inloggen via het portaal en geeft de persoon door aan de toepassing in OIDC_CLAIM_*-headers. Zet deze
            regels in de virtual host van de datavoorziening:
          </p>
          <Snippet label="Voorbeeld: Apache-configuratie">{apache(oidc, issuer)}</Snippet>
          <p className="utrecht-paragraph">
            De OIDCRedirectURI moet een van de redirect-URI's van deze datavoorziening zijn. Kies voor
            OIDCCryptoPassphrase een eigen willekeurige waarde van deze server.{' '}
            {oidc.backchannelLogoutUri
              ? `Het portaal meldt het einde van een sessie aan ${oidc.backchannelLogoutUri}.`
              : 'Voeg als back-channel-logout-URI de OIDCRedirectURI met ?logout=backchannel toe, zodat de module ' +
                'hoort wanneer de sessie in het portaal eindigt.'}{' '}
            Het volledige voorbeeld met uitleg is deploy/apache/mod-auth-openidc.conf in de repository van het portaal.
          </p>
        </Section>
      )}
      {service.forwardAuth && (
        <Section title="Met nginx (forward-auth)">
          <p className="utrecht-paragraph">
            nginx vraagt het portaal bij elk verzoek of de persoon {service.name} mag gebruiken, en geeft de persoon
            door in de X-Portaal-*-headers. De belangrijkste regels:
          </p>
          <Snippet label="Voorbeeld: nginx-configuratie">{nginx(service, portalOrigin)}</Snippet>
          <p className="utrecht-paragraph">
            Zet het adres van de datavoorziening ({service.url}) in ALLOWED_RETURN_URLS van het portaal, zodat het
            inloggen terugleidt naar de datavoorziening. Het volledige voorbeeld met uitleg is
            deploy/nginx/forward-auth.conf in de repository van het portaal. Dat laat ook de sessiecookie van het
            portaal weg uit de verzoeken aan de datavoorziening en toont een eigen pagina bij 'Geen toegang'.
          </p>
        </Section>
      )}
    </div>
  );
}
