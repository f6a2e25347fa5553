// Notifier's status page. Every value from the server goes into the page as text (textContent),
// never as markup: names and errors are free text from upstream.
"use strict";

const REFRESH_MILLIS = 5000;

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    node.setAttribute(name, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(child == null ? "" : String(child)));
  }
  return node;
}

function when(iso) {
  return iso ? new Date(iso).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z") : "–";
}

function status(text) {
  return el("span", { class: "status-" + text }, text);
}

function replaceRows(tbody, rows) {
  tbody.replaceChildren(...rows);
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (response.status === 404) {
    return null;
  }
  if (!response.ok) {
    throw new Error(url + " answered " + response.status);
  }
  return response.json();
}

function renderCounts(counts) {
  const statuses = [...new Set(counts.map(c => c.status))];
  const channels = [...new Set(counts.map(c => c.channel))];
  const table = document.getElementById("counts");
  table.tHead.replaceChildren(el("tr", {}, el("th", {}, "channel"),
    ...statuses.map(s => el("th", { class: "num" }, status(s))), el("th", { class: "num" }, "total")));
  replaceRows(table.tBodies[0], channels.map(channel => {
    const row = counts.filter(c => c.channel === channel);
    const total = row.reduce((sum, c) => sum + c.count, 0);
    return el("tr", {}, el("th", {}, channel),
      ...statuses.map(s => el("td", { class: "num", "data-count": channel + "/" + s },
        row.find(c => c.status === s).count)),
      el("td", { class: "num", "data-count": channel + "/total" }, total));
  }));
  document.getElementById("total").textContent = counts.reduce((sum, c) => sum + c.count, 0);
}

function eventLink(eventId) {
  return el("a", { class: "id", href: "?eventId=" + encodeURIComponent(eventId) }, eventId);
}

function renderLatest(latest) {
  replaceRows(document.querySelector("#latest tbody"), latest.map(n => el("tr", {},
    el("td", {}, eventLink(n.eventId)), el("td", {}, n.channel), el("td", {}, n.recipient),
    el("td", { class: "name" }, n.recipientName), el("td", {}, status(n.status)), el("td", { class: "num" }, n.attempts),
    el("td", { class: "error" }, n.lastError), el("td", { class: "when" }, when(n.updatedAt)))));
}

function renderPeers(peers) {
  const section = document.getElementById("peers");
  section.hidden = peers == null;
  if (peers != null) {
    replaceRows(section.querySelector("tbody"), peers.map(m => el("tr", {},
      el("td", { class: "when" }, when(m.receivedAt)), el("td", {}, m.channel), el("td", {}, m.to),
      el("td", {}, m.title), el("td", { class: "message" }, m.body))));
  }
}

async function refreshSummary() {
  try {
    const summary = await getJson("/api/summary");
    renderCounts(summary.counts);
    renderLatest(summary.latest);
    renderPeers(summary.peers);
    document.getElementById("inbox-size").textContent = summary.inboxSize;
    document.getElementById("dead-lettered").textContent = summary.deadLettered == null ? "?" : summary.deadLettered;
    document.getElementById("conflicts").textContent = summary.conflicts == null ? "?" : summary.conflicts;
    document.getElementById("updated").textContent = "updated " + when(summary.generatedAt);
    document.body.dataset.state = "loaded";
  } catch (e) {
    document.getElementById("updated").textContent = "could not load: " + e.message;
    document.body.dataset.state = "error";
  }
}

function describeEvent(event) {
  if (event == null) {
    return el("p", { class: "muted" }, "no notification rows (every channel opted out?)");
  }
  const r = event.recipient;
  return el("p", {}, event.type + " · " + event.transferId + " · " + event.amount + " " + event.currency
    + " · occurred " + when(event.occurredAt) + " · to ", el("span", { id: "event-name" }, r.name),
    " (" + r.userId + ", " + (r.locale || "no locale") + ", " + [r.email, r.pushToken].filter(Boolean).join(", ") + ")");
}

function timeline(history) {
  const steps = [el("li", { "data-step": "received" }, "received by the inbox " + when(history.receivedAt))];
  for (const n of history.notifications) {
    steps.push(el("li", { "data-step": "created", "data-channel": n.channel },
      n.channel + " row created " + when(n.createdAt) + ", to " + n.recipient));
    for (const a of n.history) {
      steps.push(el("li", { "data-step": "attempt", "data-channel": n.channel },
        n.channel + " attempt " + a.attempt + " " + when(a.at) + (a.provider ? " via " + a.provider : "") + ": ",
        status(a.outcome),
        a.claimLost ? " (its claim had been taken over: not this row's outcome)" : "",
        a.traceId ? el("span", { class: "trace" }, " trace " + a.traceId) : "",
        a.error ? el("span", { class: "error" }, " — " + a.error) : ""));
    }
    steps.push(el("li", { "data-step": "final", "data-channel": n.channel },
      n.channel + " now ", status(n.status), " after " + n.attempts + " attempt(s)",
      n.sentAt ? ", sent " + when(n.sentAt) : "",
      n.status === "PENDING" ? ", next attempt " + when(n.nextAttemptAt) : "",
      n.lastError ? el("span", { class: "error" }, " — last error: " + n.lastError) : ""));
  }
  return el("ol", { class: "timeline" }, ...steps);
}

async function showEvent(eventId) {
  const section = document.getElementById("event");
  document.getElementById("event-id").value = eventId;
  document.getElementById("event-title").textContent = eventId;
  section.hidden = false;
  try {
    const history = await getJson("/api/events/" + encodeURIComponent(eventId));
    const body = document.getElementById("event-body");
    if (history == null) {
      body.replaceChildren(el("p", { class: "muted" }, "No event with this id is known."));
      section.dataset.state = "not-found";
      return;
    }
    body.replaceChildren(describeEvent(history.event), timeline(history));
    section.dataset.state = "found";
  } catch (e) {
    document.getElementById("event-body").replaceChildren(el("p", { class: "error" }, "could not load: " + e.message));
    section.dataset.state = "error";
  }
}

const eventId = new URLSearchParams(location.search).get("eventId");
if (eventId) {
  showEvent(eventId.trim());
}
refreshSummary();
setInterval(refreshSummary, REFRESH_MILLIS);
