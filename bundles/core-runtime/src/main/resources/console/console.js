// The Kubelix console: signs in with a bearer token kept in this tab's sessionStorage, then polls
// /kubelix/console/state with it every two seconds and renders plugins, served resources, shadowed
// registrations and request counters. Text goes into the page as text only, never as markup.
"use strict";

const TOKEN_KEY = "kubelix.console.token";
const POLL_MS = 2000;
let timer = null;
let previous = null;

const $ = id => document.getElementById(id);

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function showLogin(message) {
  clearTimeout(timer);
  previous = null;
  $("console").hidden = true;
  $("sign-out").hidden = true;
  $("login").hidden = false;
  $("login-error").textContent = message || "";
  $("status").textContent = "";
  $("token").focus();
}

function showConsole() {
  $("login").hidden = true;
  $("console").hidden = false;
  $("sign-out").hidden = false;
  poll();
}

async function poll() {
  clearTimeout(timer);
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) {
    showLogin();
    return;
  }
  try {
    const r = await fetch("state", { headers: { "Authorization": "Bearer " + token }, cache: "no-store" });
    if (r.status === 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      showLogin("The server did not accept this token (401 Unauthorized).");
      return;
    }
    if (!r.ok) {
      const status = await r.json().catch(() => ({}));
      $("status").textContent = r.status + ": " + (status.message || r.statusText);
    } else {
      render(await r.json());
      $("status").textContent = "updated " + new Date().toLocaleTimeString();
    }
  } catch (e) {
    $("status").textContent = "server unreachable: " + e.message;
  }
  timer = setTimeout(poll, POLL_MS);
}

function contributions(plugin) {
  const c = plugin.contributes || {};
  const parts = [];
  const resources = (c.apiResources || []).map(r => (r.group ? r.resource + "." + r.group : r.resource) + "/" + r.version
      + (r.serving ? "" : " (shadowed)"));
  if (resources.length) parts.push("resources: " + resources.join(", "));
  for (const [member, services] of Object.entries(c)) {
    if (member === "apiResources" || !services.length) continue;
    parts.push(member + ": " + services.map(s => s.name + (s.type ? " (" + s.type + ")" : "")).join(", "));
  }
  if (plugin.unresolved && plugin.unresolved.length) parts.push("unresolved: " + plugin.unresolved.join("; "));
  return parts.join("\n");
}

function render(state) {
  const plugins = state.plugins || [];
  const before = new Map(previous ? previous.plugins.map(p => [p.symbolicName, p.state]) : []);

  const tbody = $("plugins").tBodies[0];
  tbody.replaceChildren();
  for (const p of plugins) {
    const row = tbody.insertRow();
    row.dataset.plugin = p.symbolicName;
    row.dataset.state = p.state;
    if (previous && before.get(p.symbolicName) !== p.state) row.className = "changed";
    cell(row, p.symbolicName);
    cell(row, p.version);
    cell(row, p.state, "state-" + p.state);
    cell(row, contributions(p)).style.whiteSpace = "pre-line";
  }

  // served resources by group/version, with the plugin serving each
  const served = new Map();
  for (const p of plugins) {
    for (const r of (p.contributes && p.contributes.apiResources) || []) {
      if (!r.serving) continue;
      const gv = r.group ? r.group + "/" + r.version : r.version;
      if (!served.has(gv)) served.set(gv, { resources: [], by: new Set() });
      served.get(gv).resources.push(r.resource);
      served.get(gv).by.add(p.symbolicName);
    }
  }
  const rbody = $("resources").tBodies[0];
  rbody.replaceChildren();
  let resourceCount = 0;
  for (const gv of [...served.keys()].sort()) {
    const s = served.get(gv);
    resourceCount += s.resources.length;
    const row = rbody.insertRow();
    row.dataset.groupVersion = gv;
    cell(row, gv);
    cell(row, s.resources.sort().join(", "));
    cell(row, [...s.by].join(", "));
  }

  const conflicts = state.conflicts || [];
  const cbody = $("conflicts").tBodies[0];
  cbody.replaceChildren();
  for (const c of conflicts) {
    const row = cbody.insertRow();
    cell(row, (c.group ? c.resource + "." + c.group : c.resource) + "/" + c.version);
    cell(row, c.servedBy ? c.servedBy.bundle + " (" + c.servedBy.provider + ", ranking " + c.servedBy.ranking + ")" : "none");
    cell(row, c.shadowed.map(s => s.bundle + " (" + s.provider + ", ranking " + s.ranking + ")").join(", "));
  }
  $("conflicts").hidden = conflicts.length === 0;
  $("no-conflicts").hidden = conflicts.length !== 0;

  const total = state.requests ? state.requests.total : 0;
  $("plugin-count").textContent = plugins.length;
  $("resource-count").textContent = resourceCount;
  $("request-total").textContent = total;
  $("watch-count").textContent = state.watches ? state.watches.open : 0;
  if (previous && previous.requests) {
    const seconds = (Date.now() - previous.at) / 1000;
    $("request-rate").textContent = ((total - previous.requests.total) / seconds).toFixed(1);
  }
  previous = Object.assign(state, { at: Date.now() });
}

document.addEventListener("DOMContentLoaded", () => {
  $("login").addEventListener("submit", e => {
    e.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
    $("token").value = "";
    showConsole();
  });
  $("sign-out").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    showLogin();
  });
  if (sessionStorage.getItem(TOKEN_KEY)) showConsole(); else showLogin();
});
