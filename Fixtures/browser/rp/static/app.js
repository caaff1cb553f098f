// The page's side of the ceremonies: ask the server for options, call navigator.credentials,
// send the response back. The server (server.py) verifies everything with py_webauthn.
"use strict";

function fromB64url(text) {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
}

function toB64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok || json.ok === false) throw new Error(json.error || `HTTP ${response.status}`);
  return json;
}

function show(state, text, result) {
  const status = document.getElementById("status");
  status.dataset.state = state;
  status.dataset.user = result?.user ?? "";
  status.dataset.credentialId = result?.credentialId ?? "";
  status.dataset.signCount = result?.signCount ?? "";
  status.textContent = text;
}

async function register() {
  const username = document.getElementById("username").value;
  const options = await post("/api/register/options", { username });
  const credential = await navigator.credentials.create({
    publicKey: {
      ...options,
      challenge: fromB64url(options.challenge),
      user: { ...options.user, id: fromB64url(options.user.id) },
      excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: fromB64url(c.id) })),
    },
  });
  const response = credential.response;
  const result = await post("/api/register/verify", {
    id: credential.id, rawId: toB64url(credential.rawId), type: credential.type,
    response: {
      clientDataJSON: toB64url(response.clientDataJSON), attestationObject: toB64url(response.attestationObject),
      transports: response.getTransports ? response.getTransports() : [],
    },
    clientExtensionResults: {},
  });
  show("registered", `Created a passkey for ${result.user}.`, result);
}

async function login() {
  const username = document.getElementById("username").value;
  const options = await post("/api/login/options", username ? { username } : {});
  const credential = await navigator.credentials.get({
    publicKey: {
      ...options,
      challenge: fromB64url(options.challenge),
      allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: fromB64url(c.id) })),
    },
  });
  const response = credential.response;
  const body = {
    id: credential.id, rawId: toB64url(credential.rawId), type: credential.type,
    response: {
      clientDataJSON: toB64url(response.clientDataJSON), authenticatorData: toB64url(response.authenticatorData),
      signature: toB64url(response.signature),
    },
    clientExtensionResults: {},
  };
  if (response.userHandle) body.response.userHandle = toB64url(response.userHandle);
  const result = await post("/api/login/verify", body);
  show("signed-in", `Signed in as ${result.user} (sign count ${result.signCount}).`, result);
}

function guarded(action) {
  return () => action().catch((error) => show("error", `${error.name || "Error"}: ${error.message}`));
}

document.getElementById("register").addEventListener("click", guarded(register));
document.getElementById("login").addEventListener("click", guarded(login));
