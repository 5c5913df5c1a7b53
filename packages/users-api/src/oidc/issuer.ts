/** Where the provider's Koa app is mounted on the public listener; the issuer is the public URL with this path. */
export const OIDC_MOUNT = '/oidc';

/** The provider's issuer: `PUBLIC_URL` + `/oidc`. */
export const oidcIssuer = (publicUrl: URL) => new URL(`${publicUrl.href.replace(/\/$/, '')}${OIDC_MOUNT}`);
