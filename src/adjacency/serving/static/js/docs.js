// The API reference page (/docs): reads /openapi.json and lists every endpoint with its
// method, path, summary, parameters, request body and responses, then every schema.
// Self-contained (no CDN, no build step), so it works offline. Text from the description
// is only ever inserted as text, never as HTML.

import { el } from "./dom.js";

const METHODS = ["get", "post", "put", "patch", "delete", "head", "options"];


// Descriptions use `code` and ``code`` (Markdown and reStructuredText): show those as code.
function prose(text) {
  const parts = String(text || "").split(/``?([^`]+)``?/);
  return parts.map((part, i) => (i % 2 ? el("code", {}, part) : part));
}

function refName(ref) {
  return ref.split("/").pop();
}

function schemaId(name) {
  return `schema-${name}`;
}

function endpointId(method, path) {
  return `${method}-${path}`.replace(/[^A-Za-z0-9_-]+/g, "-");
}

// A schema's type as inline content: references link to the schema's section.
function typeOf(schema) {
  if (!schema || typeof schema !== "object") return ["any"];
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return [el("a", { href: `#${schemaId(name)}` }, name)];
  }
  const union = schema.anyOf || schema.oneOf;
  if (union) return join(union.map(typeOf), " | ");
  if (schema.allOf) return join(schema.allOf.map(typeOf), " & ");
  if (schema.const !== undefined) return [el("code", {}, JSON.stringify(schema.const))];
  if (schema.enum) return join(schema.enum.map((v) => [el("code", {}, JSON.stringify(v))]), " | ");
  if (schema.type === "array") return ["array of ", ...typeOf(schema.items)];
  if (schema.type === "object" && schema.additionalProperties && typeof schema.additionalProperties === "object") {
    return ["object of ", ...typeOf(schema.additionalProperties)];
  }
  if (schema.prefixItems) return ["[", ...join(schema.prefixItems.map(typeOf), ", "), "]"];
  if (Array.isArray(schema.type)) return [schema.type.join(" | ")];
  return [schema.type || "any"];
}

function join(parts, separator) {
  const out = [];
  parts.forEach((part, i) => {
    if (i) out.push(separator);
    out.push(...part);
  });
  return out;
}

// Limits and defaults, collected from the schema and the branches of a union.
function constraints(schema) {
  const found = [];
  const visit = (s) => {
    if (!s || typeof s !== "object") return;
    const pairs = [
      ["minimum", "≥ "], ["exclusiveMinimum", "> "], ["maximum", "≤ "], ["exclusiveMaximum", "< "],
      ["minLength", "length ≥ "], ["maxLength", "length ≤ "],
      ["minItems", "items ≥ "], ["maxItems", "items ≤ "], ["pattern", "matches "],
    ];
    for (const [key, label] of pairs) if (s[key] !== undefined) found.push(label + s[key]);
    (s.anyOf || s.oneOf || []).forEach(visit);
  };
  visit(schema);
  if (schema && schema.default !== undefined) found.push(`default ${JSON.stringify(schema.default)}`);
  return found.join(", ");
}

function schemaBlock(content) {
  const entries = Object.entries(content || {});
  if (!entries.length) return el("span", { class: "muted" }, "no body");
  return el("span", {}, join(entries.map(([media, body]) => [
    ...typeOf(body.schema), " ", el("span", { class: "muted" }, `(${media})`),
  ]), "; "));
}

// Wide tables scroll sideways on narrow screens instead of squeezing their words; the
// keyboard can focus the scrolling box, so it can scroll it too (axe: scrollable regions).
function scroll(table) {
  return el("div", { class: "api-scroll", tabindex: "0" }, table);
}

function parametersTable(parameters) {
  return scroll(el("table", { class: "api-table" },
    el("thead", {}, el("tr", {}, ["name", "in", "type", "required", "limits", "meaning"].map((h) => el("th", {}, h)))),
    el("tbody", {}, parameters.map((p) => el("tr", {},
      el("td", {}, el("code", {}, p.name)),
      el("td", {}, p.in),
      el("td", {}, typeOf(p.schema)),
      el("td", {}, p.required ? "yes" : "no"),
      el("td", {}, constraints(p.schema)),
      el("td", {}, prose(p.description || (p.schema && p.schema.description) || "")),
    )))));
}

function endpointSection(method, path, op) {
  const parameters = op.parameters || [];
  const responses = Object.entries(op.responses || {});
  return el("section", { class: "api-endpoint", id: endpointId(method, path) },
    el("h2", {}, el("span", { class: `api-method api-${method}` }, method.toUpperCase()), " ",
      el("code", { class: "api-path" }, path)),
    el("p", { class: "api-summary" }, el("strong", {}, op.summary || ""),
      op.tags && op.tags.length ? el("span", { class: "muted" }, ` · ${op.tags.join(", ")}`) : null),
    op.description ? el("p", {}, prose(op.description)) : null,
    el("h3", {}, "Parameters"),
    parameters.length ? parametersTable(parameters) : el("p", { class: "muted" }, "none"),
    el("h3", {}, "Request body"),
    op.requestBody
      ? el("p", {}, schemaBlock(op.requestBody.content), op.requestBody.required ? " (required)" : " (optional)")
      : el("p", { class: "muted" }, "none"),
    el("h3", {}, "Responses"),
    scroll(el("table", { class: "api-table" },
      el("thead", {}, el("tr", {}, ["status", "meaning", "body"].map((h) => el("th", {}, h)))),
      el("tbody", {}, responses.map(([status, r]) => el("tr", {},
        el("td", {}, el("code", {}, status)),
        el("td", {}, prose(r.description || "")),
        el("td", {}, schemaBlock(r.content)),
      ))))),
  );
}

function schemaSection(name, schema) {
  const properties = Object.entries(schema.properties || {});
  const required = new Set(schema.required || []);
  return el("section", { class: "api-schema", id: schemaId(name) },
    el("h2", {}, el("code", {}, name), " ", el("span", { class: "muted" }, "schema")),
    schema.description ? el("p", {}, prose(schema.description)) : null,
    properties.length
      ? scroll(el("table", { class: "api-table" },
        el("thead", {}, el("tr", {}, ["field", "type", "required", "limits", "meaning"].map((h) => el("th", {}, h)))),
        el("tbody", {}, properties.map(([field, s]) => el("tr", {},
          el("td", {}, el("code", {}, field)),
          el("td", {}, typeOf(s)),
          el("td", {}, required.has(field) ? "yes" : "no"),
          el("td", {}, constraints(s)),
          el("td", {}, prose(s.description || "")),
        )))))
      : el("p", {}, typeOf(schema)),
  );
}

function render(spec) {
  const info = spec.info || {};
  document.getElementById("api-summary").replaceChildren(
    el("strong", {}, info.title || "API"), info.summary ? `: ${info.summary}` : "");
  document.getElementById("api-description").replaceChildren(...prose(info.description || ""));
  document.getElementById("api-version").textContent = info.version || "?";
  document.getElementById("api-openapi").textContent = spec.openapi || "?";

  const operations = [];
  for (const [path, item] of Object.entries(spec.paths || {})) {
    for (const method of METHODS) if (item[method]) operations.push([method, path, item[method]]);
  }
  document.getElementById("api-index-table").replaceChildren(el("tbody", {}, operations.map(([method, path, op]) =>
    el("tr", {},
      el("td", {}, el("span", { class: `api-method api-${method}` }, method.toUpperCase())),
      el("td", {}, el("a", { href: `#${endpointId(method, path)}` }, el("code", {}, path))),
      el("td", {}, op.summary || ""),
    ))));
  document.getElementById("api-index").hidden = false;
  document.getElementById("api-endpoints").replaceChildren(
    ...operations.map(([method, path, op]) => endpointSection(method, path, op)));

  const schemas = Object.entries((spec.components || {}).schemas || {});
  document.getElementById("api-schemas").replaceChildren(
    el("h1", {}, "Schemas"), ...schemas.map(([name, schema]) => schemaSection(name, schema)));
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}

async function main() {
  try {
    const response = await fetch("/openapi.json");
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    render(await response.json());
  } catch (err) {
    document.getElementById("api-error").textContent =
      `Cannot read /openapi.json (${err.message}). Is \`adjacency play\` still running?`;
  }
}

main();
