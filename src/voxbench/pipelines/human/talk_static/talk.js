// voxbench talk: the person's side of a call to the agent under test.
// Plain browser APIs only (getUserMedia, RTCPeerConnection, fetch); nothing from a CDN.
"use strict";

const $ = (id) => document.getElementById(id);
const ui = {
  callBtn: $("call-btn"), hangupBtn: $("hangup-btn"), status: $("status"), dot: $("dot"),
  level: $("level"), error: $("error"), transcript: $("transcript"), empty: $("empty"),
  remote: $("remote"), rating: $("rating"), saved: $("saved"), meta: $("meta"),
};
const call = { pc: null, dc: null, stream: null, audioCtx: null, poll: null, lastWho: null, ended: false };
let session = null;

function setStatus(text, kind) {
  ui.status.textContent = text;
  ui.dot.className = "dot" + (kind ? " " + kind : "");
  document.body.dataset.state = kind || "";
}

function showError(text) {
  ui.error.textContent = text;
  ui.error.hidden = false;
  setStatus("Problem", "err");
}

function micErrorText(err) {
  const name = err && err.name;
  if (name === "NotAllowedError" || name === "SecurityError") {
    return "Microphone permission was denied. Allow microphone access for this page (the icon in the " +
      "address bar, or the browser's site settings), then reload and call again.";
  }
  if (name === "NotFoundError" || name === "OverconstrainedError") {
    return "No microphone was found. Connect one (or pick an input device in your system's sound " +
      "settings), then reload and call again.";
  }
  if (name === "NotReadableError" || name === "AbortError") {
    return "The microphone is busy or could not be started (another program may be using it). " +
      "Close it, then reload and call again.";
  }
  return "Could not open the microphone: " + (err && err.message ? err.message : String(err));
}

function addLine(who, text) {
  if (ui.empty) { ui.empty.remove(); ui.empty = null; }
  const last = ui.transcript.lastElementChild;
  if (who !== "tool" && call.lastWho === who && last && last.classList.contains(who)) {
    last.querySelector(".text").textContent += " " + text;
  } else {
    const li = document.createElement("li");
    li.className = who;
    if (who === "tool") {
      li.textContent = text;
    } else {
      const label = document.createElement("span");
      label.className = "who";
      label.textContent = who === "user" ? "You" : "Agent";
      const body = document.createElement("span");
      body.className = "text";
      body.textContent = text;
      li.append(label, body);
    }
    ui.transcript.append(li);
  }
  if (who !== "tool") call.lastWho = who;
  ui.transcript.scrollTop = ui.transcript.scrollHeight;
}

function onMessage(ev) {
  let msg;
  try { msg = JSON.parse(ev.data); } catch (e) { return; }
  if (msg.type === "voxbench-transcript") addLine(msg.who, msg.text);
  else if (msg.type === "voxbench-tool") addLine("tool", "agent looked up / changed: " + msg.name);
  else if (msg.type === "voxbench-error") showError("The agent failed: " + msg.message);
  else if (msg.type === "voxbench-state" && msg.state === "in_call") setStatus("In call: speak any time", "live");
}

function startMeter(stream) {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    call.audioCtx = new Ctx();
    const src = call.audioCtx.createMediaStreamSource(stream);
    const an = call.audioCtx.createAnalyser();
    an.fftSize = 512;
    src.connect(an);
    const buf = new Float32Array(an.fftSize);
    const tick = () => {
      if (!call.audioCtx) return;
      an.getFloatTimeDomainData(buf);
      let s = 0;
      for (const v of buf) s += v * v;
      const db = 10 * Math.log10(s / buf.length + 1e-10);
      ui.level.style.width = Math.max(0, Math.min(100, (db + 60) * 100 / 60)) + "%";
      requestAnimationFrame(tick);
    };
    tick();
  } catch (e) { /* the meter is a nicety */ }
}

function waitIceGathering(pc, ms) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { pc.removeEventListener("icegatheringstatechange", check); resolve(); };
    const check = () => { if (pc.iceGatheringState === "complete") done(); };
    pc.addEventListener("icegatheringstatechange", check);
    setTimeout(done, ms);
  });
}

async function postJSON(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}) });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
  return data;
}

async function startCall() {
  ui.error.hidden = true;
  ui.callBtn.disabled = true;
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    showError("This browser gives no microphone access here. Open the page as http://127.0.0.1:" +
      location.port + "/ (browsers allow the microphone only on localhost or https).");
    ui.callBtn.disabled = false;
    return;
  }
  setStatus("Asking for the microphone…", "busy");
  const processing = !session.raw_mic;
  try {
    call.stream = await navigator.mediaDevices.getUserMedia({ audio: {
      echoCancellation: processing, noiseSuppression: processing, autoGainControl: processing,
      channelCount: 1 } });
  } catch (err) {
    showError(micErrorText(err));
    ui.callBtn.disabled = false;
    return;
  }
  const track = call.stream.getAudioTracks()[0];
  if (!track) { showError(micErrorText({ name: "NotFoundError" })); ui.callBtn.disabled = false; return; }
  startMeter(call.stream);

  setStatus("Connecting…", "busy");
  const pc = new RTCPeerConnection({ iceServers: [] });
  call.pc = pc;
  pc.addTransceiver(track, { direction: "sendrecv", streams: [call.stream] });
  call.dc = pc.createDataChannel("voxbench", { ordered: true });
  call.dc.onmessage = onMessage;
  pc.ontrack = (e) => {
    ui.remote.srcObject = (e.streams && e.streams[0]) || new MediaStream([e.track]);
    ui.remote.play().catch(() => {});
  };
  pc.onconnectionstatechange = () => {
    if (pc.connectionState === "connected") {
      setStatus("In call: speak any time", "live");
    } else if (pc.connectionState === "failed" && !call.ended) {
      showError("The audio connection to the agent failed. Check that nothing blocks local " +
        "connections to 127.0.0.1, then reload and call again.");
    }
  };
  try {
    await pc.setLocalDescription(await pc.createOffer());
    await waitIceGathering(pc, 4000);
    if (!/a=candidate/.test(pc.localDescription.sdp)) {
      throw new Error("the browser found no network address to connect on");
    }
    const answer = await postJSON("/api/offer", { sdp: pc.localDescription.sdp, type: pc.localDescription.type });
    await pc.setRemoteDescription(answer);
  } catch (err) {
    showError("Could not start the call: " + err.message);
    cleanup();
    ui.callBtn.disabled = false;
    return;
  }
  ui.callBtn.hidden = true;
  ui.hangupBtn.hidden = false;
  setTimeout(() => {
    if (pc.connectionState !== "connected" && !call.ended) {
      showError("The audio connection did not come up within 20 seconds. Reload and try again.");
    }
  }, 20000);
  call.poll = setInterval(pollState, 1000);
}

function cleanup() {
  if (call.stream) call.stream.getTracks().forEach((t) => t.stop());
  if (call.pc) { try { call.pc.close(); } catch (e) { /* closed already */ } }
  if (call.audioCtx) { call.audioCtx.close().catch(() => {}); call.audioCtx = null; }
  ui.level.style.width = "0";
  call.pc = null;
  call.stream = null;
}

const REASONS = {
  end_call: "you hung up", transfer: "the agent transferred you", time_limit: "the time limit was reached",
  inactivity_timeout: "nobody spoke for a while", agent_error: "the agent failed",
  connection_lost: "the connection was lost",
};

async function pollState() {
  let s;
  try { s = await (await fetch("/api/state")).json(); } catch (e) { return; }
  if (s.state === "ending") setStatus("Ending the call…", "busy");
  if (s.state === "ended" || s.state === "rated") {
    clearInterval(call.poll);
    call.ended = true;
    cleanup();
    ui.hangupBtn.hidden = true;
    setStatus("Call ended: " + (REASONS[s.end_reason] || s.end_reason), "");
    if (s.status === "infra_failure" && s.error) showError("The call failed: " + s.error);
    if (s.state === "ended") ui.rating.hidden = false;
    else showSaved(s);
  }
}

async function hangUp() {
  ui.hangupBtn.disabled = true;
  setStatus("Ending the call…", "busy");
  call.ended = true;
  try { await postJSON("/api/hangup"); } catch (e) { /* the state poll still reports the end */ }
  if (call.stream) call.stream.getTracks().forEach((t) => t.stop());
}

function showSaved(s) {
  ui.rating.hidden = true;
  ui.saved.hidden = false;
  ui.saved.textContent = "";
  const p = document.createElement("p");
  p.append("Thank you! Your rating is saved with the record ");
  const code = document.createElement("code");
  code.textContent = s.record || "";
  p.append(code);
  ui.saved.append(p);
  const scores = s.scores || {};
  const names = Object.keys(scores);
  if (names.length) {
    const t = document.createElement("table");
    for (const n of names) {
      const tr = document.createElement("tr");
      const v = scores[n];
      tr.innerHTML = "<td></td><td></td>";
      tr.children[0].textContent = n === "response_speed" ? "response time" : n.replace(/_/g, " ");
      let shown = v === null || v === undefined ? "n/a" : typeof v === "number" ? v.toFixed(2) : String(v);
      if (n === "response_speed" && typeof v === "number") shown += " s";
      tr.children[1].textContent = shown;
      t.append(tr);
    }
    ui.saved.append(t);
  }
  document.body.dataset.state = "rated";
}

async function submitRating(ev) {
  ev.preventDefault();
  const f = new FormData(ui.rating);
  const td = f.get("task_done");
  const body = {
    task_done: td === "yes" ? true : td === "no" ? false : null,
    natural: Number(f.get("natural")),
    comment: String(f.get("comment") || ""),
  };
  $("rate-btn").disabled = true;
  try {
    showSaved(await postJSON("/api/rating", body));
  } catch (err) {
    $("rate-btn").disabled = false;
    showError("Could not save the rating: " + err.message);
  }
}

function fillCard(card) {
  $("caller").textContent = card.caller_name || "the caller";
  $("goal").textContent = card.goal;
  const dl = $("known");
  for (const [k, v] of Object.entries(card.known || {})) {
    const dt = document.createElement("dt");
    dt.textContent = k.replace(/_/g, " ");
    const dd = document.createElement("dd");
    dd.textContent = typeof v === "object" ? JSON.stringify(v) : String(v);
    dl.append(dt, dd);
  }
  const ul = $("must");
  for (const m of card.must_have || []) {
    const li = document.createElement("li");
    li.textContent = m;
    ul.append(li);
  }
  $("must-wrap").hidden = !(card.must_have || []).length;
  $("done").textContent = card.done_when || "";
  $("done-wrap").hidden = !card.done_when;
  $("opener").textContent = card.starting_utterance || "";
  $("opener-wrap").hidden = !card.starting_utterance;
  ui.meta.textContent = card.domain + " · scenario " + card.scenario_id +
    (card.current_date_time ? " · " + card.current_date_time : "") + " · agent: " + session.agent;
}

async function init() {
  try {
    session = await (await fetch("/api/session")).json();
  } catch (e) {
    showError("The voxbench talk server is not reachable. Start `voxbench talk` again.");
    ui.callBtn.disabled = true;
    return;
  }
  fillCard(session.card);
  if (session.state !== "ready") {
    ui.callBtn.disabled = true;
    if (session.state === "ended") { ui.rating.hidden = false; setStatus("Call ended", ""); }
    else if (session.state === "rated") showSaved(session);
    else showError("This session's call is already in progress in another tab.");
    return;
  }
  setStatus("Ready", "");
  ui.callBtn.addEventListener("click", startCall);
  ui.hangupBtn.addEventListener("click", hangUp);
  ui.rating.addEventListener("submit", submitRating);
  window.addEventListener("pagehide", () => {
    if (call.pc && !call.ended) navigator.sendBeacon("/api/hangup", "{}");
  });
}

init();
