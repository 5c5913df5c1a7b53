// The body of Kratos' web_hook after every successful sign-in step (selfservice.flows.login.after in kratos.yml):
// who signed in, with which method, at which assurance level and from which address, for the portal's audit log
// (POST /api/hooks/kratos/login, packages/users-api/src/routes/kratos-hook-routes.ts). Never a secret: no password,
// code, token or cookie leaves Kratos here.
//
// Kratos passes `ctx` with the login flow, the identity, the new or upgraded session and the request's headers (those
// of clients.web_hook.header_allowlist). The session's devices end with the one of this very request, whose address
// Kratos took from True-Client-IP, X-Real-IP or X-Forwarded-For, else the connection. Without an identity there is
// nothing to record: `error 'cancel'` makes Kratos skip the call.
function(ctx)
  local has(object, field) = std.isObject(object) && std.objectHas(object, field) && object[field] != null;
  local last(array) = if std.isArray(array) && std.length(array) > 0 then array[std.length(array) - 1] else {};
  local session = if has(ctx, 'session') then ctx.session else {};
  local device = if has(session, 'devices') then last(session.devices) else {};
  local headers = if has(ctx, 'request_headers') then ctx.request_headers else {};
  local trueClientIp = if has(headers, 'True-Client-Ip') then last(headers['True-Client-Ip']) else null;
  local lastMethod = if has(session, 'authentication_methods') then last(session.authentication_methods) else {};
  local traits = if has(ctx.identity, 'traits') then ctx.identity.traits else {};

  if !has(ctx, 'identity') then error 'cancel' else {
    identity_id: ctx.identity.id,
    email: if has(traits, 'email') then traits.email else null,
    flow_id: ctx.flow.id,
    // The method of this step: `password`, then `totp` or `lookup_secret` for the second factor.
    method: if has(ctx.flow, 'active') then ctx.flow.active
    else if has(lastMethod, 'method') then lastMethod.method
    else 'unknown',
    aal: if has(session, 'authenticator_assurance_level') then session.authenticator_assurance_level else null,
    client_address: if has(device, 'ip_address') then device.ip_address
    else if std.isString(trueClientIp) then trueClientIp
    else null,
  }
