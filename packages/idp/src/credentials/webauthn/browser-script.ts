import crypto from 'node:crypto';

/**
 * The script behind `GET /.well-known/ory/webauthn.js` (docs/kratos-compatibility.md#passkeys-and-security-keys). It
 * defines the global functions that Ory Elements and Kratos' own pages call through the nodes' `onclickTrigger` and
 * `onloadTrigger` attributes: each reads the options the provider put in a node (base64url encoded binary fields),
 * asks `navigator.credentials`, writes the answer as JSON into the hidden input the provider reads, and submits the
 * form the input belongs to. Written for this project; it keeps to what browsers since 2020 understand.
 */
const SOURCE = String.raw`(function () {
  'use strict';
  if (typeof window === 'undefined' || window.__oryWebAuthnInitialized) return;
  if (!window.PublicKeyCredential) {
    console.warn('WebAuthn is not available in this browser.');
    return;
  }

  function toBytes(text) {
    var base64 = String(text).replace(/-/g, '+').replace(/_/g, '/');
    while (base64.length % 4) base64 += '=';
    var binary = atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  function toText(buffer) {
    if (!buffer) return '';
    var bytes = new Uint8Array(buffer);
    var binary = '';
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  function field(name) {
    return document.getElementsByName(name)[0];
  }

  function withBinaryIds(list) {
    if (!Array.isArray(list)) return list;
    return list.map(function (entry) {
      return Object.assign({}, entry, { id: toBytes(entry.id) });
    });
  }

  /** Options as the provider sends them, with the binary fields decoded. */
  function decodeOptions(options) {
    var publicKey = Object.assign({}, options.publicKey);
    publicKey.challenge = toBytes(publicKey.challenge);
    if (publicKey.user && publicKey.user.id) {
      publicKey.user = Object.assign({}, publicKey.user, { id: toBytes(publicKey.user.id) });
    }
    if (publicKey.allowCredentials) publicKey.allowCredentials = withBinaryIds(publicKey.allowCredentials);
    if (publicKey.excludeCredentials) publicKey.excludeCredentials = withBinaryIds(publicKey.excludeCredentials);
    return { publicKey: publicKey };
  }

  function parse(value) {
    return typeof value === 'string' ? JSON.parse(value) : value;
  }

  function attestationJson(credential) {
    return JSON.stringify({
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      response: {
        attestationObject: toText(credential.response.attestationObject),
        clientDataJSON: toText(credential.response.clientDataJSON),
        transports: credential.response.getTransports ? credential.response.getTransports() : [],
      },
    });
  }

  function assertionJson(credential) {
    return JSON.stringify({
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      response: {
        authenticatorData: toText(credential.response.authenticatorData),
        clientDataJSON: toText(credential.response.clientDataJSON),
        signature: toText(credential.response.signature),
        userHandle: toText(credential.response.userHandle),
      },
    });
  }

  /** Writes the answer into the hidden input and submits its form as the browser would. */
  function submitWith(input, value) {
    input.value = value;
    var form = input.closest('form');
    if (form) HTMLFormElement.prototype.submit.call(form);
  }

  function report(error) {
    console.error('WebAuthn ceremony failed:', error);
  }

  function cancelAutocomplete() {
    if (window.abortPasskeyConditionalUI) {
      window.abortPasskeyConditionalUI.abort('A passkey sign-in was started.');
      window.abortPasskeyConditionalUI = undefined;
    }
  }

  function webAuthnLogin(options) {
    var trigger = field('webauthn_login_trigger');
    var result = field('webauthn_login');
    if (!result || (!options && !trigger)) return report('the sign-in fields are missing');
    navigator.credentials
      .get(decodeOptions(parse(options || trigger.value)))
      .then(function (credential) {
        submitWith(result, assertionJson(credential));
      })
      .catch(report);
  }

  function webAuthnRegistration(options) {
    var trigger = field('webauthn_register_trigger');
    var result = field('webauthn_register');
    if (!result || (!options && !trigger)) return report('the registration fields are missing');
    navigator.credentials
      .create(decodeOptions(parse(options || trigger.value)))
      .then(function (credential) {
        submitWith(result, attestationJson(credential));
      })
      .catch(report);
  }

  function passkeyLogin() {
    var data = field('passkey_challenge');
    var result = field('passkey_login');
    if (!data || !result) return report('the passkey fields are missing');
    cancelAutocomplete();
    navigator.credentials
      .get(decodeOptions(parse(data.value)))
      .then(function (credential) {
        submitWith(result, assertionJson(credential));
      })
      .catch(function (error) {
        report(error);
        return passkeyLoginAutocompleteInit();
      });
  }

  // The flow whose autofill answered already, kept for the tab. The provider refuses an answer with the same flow and
  // a new challenge; a browser that picks the same passkey at once would answer every page load again and lock out
  // everyone behind its address (docs/security.md#45-brute-force-limits-and-lockout). The passkey button still works.
  var AUTOFILL_ANSWERED = 'oryPasskeyAutofillAnsweredFlow';

  function flowOf(input) {
    var form = input.closest('form');
    var match = form ? /[?&]flow=([^&#]+)/.exec(form.getAttribute('action') || '') : null;
    return match ? match[1] : '';
  }

  function autofillAnswered(flow) {
    try {
      return flow !== '' && window.sessionStorage.getItem(AUTOFILL_ANSWERED) === flow;
    } catch (error) {
      return false;
    }
  }

  function rememberAutofillAnswer(flow) {
    try {
      window.sessionStorage.setItem(AUTOFILL_ANSWERED, flow);
    } catch (error) {
      // Without storage the page asks again, as Kratos' script does.
    }
  }

  function passkeyLoginAutocompleteInit() {
    var data = field('passkey_challenge');
    var result = field('passkey_login');
    if (!data || !result || !field('identifier')) return Promise.resolve();
    if (autofillAnswered(flowOf(result))) return Promise.resolve();
    var available = PublicKeyCredential.isConditionalMediationAvailable;
    if (!available) return Promise.resolve();
    return available.call(PublicKeyCredential).then(function (yes) {
      if (!yes) return;
      cancelAutocomplete();
      var controller = new AbortController();
      window.abortPasskeyConditionalUI = controller;
      var options = decodeOptions(parse(data.value));
      return navigator.credentials
        .get({ publicKey: options.publicKey, mediation: 'conditional', signal: controller.signal })
        .then(function (credential) {
          rememberAutofillAnswer(flowOf(result));
          submitWith(result, assertionJson(credential));
        })
        .catch(function (error) {
          if (!controller.signal.aborted) report(error);
        });
    });
  }

  function passkeyRegistration() {
    var data = field('passkey_create_data');
    var result = field('passkey_register');
    if (!data || !result) return report('the passkey fields are missing');
    var createData = parse(data.value);
    var names = Array.isArray(createData.displayNameFieldNames) && createData.displayNameFieldNames.length > 0
      ? createData.displayNameFieldNames
      : [createData.displayNameFieldName];
    var form = data.closest('form');
    var displayName = '';
    for (var i = 0; i < names.length && !displayName; i++) {
      var input = names[i] && form ? form.querySelector('[name="' + names[i] + '"]') : null;
      if (input && input.value) displayName = input.value;
    }
    var options = decodeOptions(createData.credentialOptions);
    options.publicKey.user = Object.assign({}, options.publicKey.user, { name: displayName, displayName: displayName });
    navigator.credentials
      .create(options)
      .then(function (credential) {
        submitWith(result, attestationJson(credential));
      })
      .catch(report);
  }

  function passkeySettingsRegistration() {
    var data = field('passkey_create_data');
    var result = field('passkey_settings_register');
    if (!data || !result) return report('the passkey fields are missing');
    navigator.credentials
      .create(decodeOptions(parse(data.value)))
      .then(function (credential) {
        submitWith(result, attestationJson(credential));
      })
      .catch(report);
  }

  var api = {
    WebAuthnLogin: webAuthnLogin,
    WebAuthnRegistration: webAuthnRegistration,
    PasskeyLogin: passkeyLogin,
    PasskeyLoginAutocompleteInit: passkeyLoginAutocompleteInit,
    PasskeyRegistration: passkeyRegistration,
    PasskeySettingsRegistration: passkeySettingsRegistration,
  };
  Object.keys(api).forEach(function (name) {
    window['ory' + name] = api[name];
    window['__ory' + name] = api[name];
  });
  window.__oryWebAuthnInitialized = true;
  window.dispatchEvent(new CustomEvent('oryWebAuthnInitialized'));
})();
`;

/** The path Kratos serves the script at. */
export const WEBAUTHN_SCRIPT_PATH = '/.well-known/ory/webauthn.js';

export const webAuthnScript = SOURCE;

/** The Subresource Integrity value of the script, as the script node's `integrity` attribute carries it. */
export const webAuthnScriptIntegrity = `sha512-${crypto.createHash('sha512').update(SOURCE).digest('base64')}`;

/** A strong validator for conditional requests: the script changes only with a new release. */
export const webAuthnScriptEtag = `"${crypto.createHash('sha256').update(SOURCE).digest('base64url').slice(0, 27)}"`;
