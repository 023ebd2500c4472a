// The page's side of the console: the teletype's paper, the keyboard, BELL, the status
// line and the 340's canvas, over one websocket to this tab's own machine
// (pdp6/web/server.py says what goes each way).
import { Phosphor } from "./phosphor.js";

const paper = document.getElementById("paper");
const statusLine = document.getElementById("status");
const messageLine = document.getElementById("message");
const canvas = document.getElementById("screen");
const MAX_PAPER = 200000; // characters kept on the paper; older ones are torn off

// What tests and the curious can look at: window.pdp6web.
const state = {
  phosphor: null,
  frames: 0,
  firstPictureMs: null, // performance.now() when the first picture with points was drawn
  frozen: false, // tests stop the drawing to read the canvas
  owed: false, // points came since the last "took"
  costMs: 0, // the time taking and drawing them took, for the server's frame budget
  ended: false,
  printed: "",
};
window.pdp6web = state;

const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
socket.binaryType = "arraybuffer";
const send = (message) => {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
};

// --- the paper -------------------------------------------------------------------------
const cursor = document.createElement("span");
cursor.className = "cursor";
cursor.textContent = " ";
paper.append(cursor);

function print(text, className) {
  const node = className ? document.createElement("span") : document.createTextNode(text);
  if (className) {
    node.className = className;
    node.textContent = text;
  }
  const follow = paper.scrollTop + paper.clientHeight >= paper.scrollHeight - 4;
  paper.insertBefore(node, cursor);
  if (!className) {
    state.printed += text;
    if (state.printed.length > MAX_PAPER) state.printed = state.printed.slice(-MAX_PAPER / 2);
  }
  while (paper.childNodes.length > 4000) paper.removeChild(paper.firstChild);
  if (follow) paper.scrollTop = paper.scrollHeight;
}

function note(text) {
  const atLineStart = state.printed === "" || state.printed.endsWith("\n");
  print(`${atLineStart ? "" : "\n"}${text}\n`, "note");
}

// --- the keyboard ----------------------------------------------------------------------
function keys(text) {
  send({ type: "keys", text });
}

function bell() {
  send({ type: "bell" });
}

paper.addEventListener("keydown", (event) => {
  if (event.ctrlKey && (event.key === "c" || event.key === "C")) {
    bell();
  } else if (event.key === "Enter") {
    keys("\r");
  } else if (event.key === "Backspace" || event.key === "Delete") {
    keys("\x7f"); // RUBOUT
  } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
    keys(event.key);
  } else {
    return;
  }
  event.preventDefault();
});
paper.addEventListener("paste", (event) => {
  keys(event.clipboardData.getData("text").replace(/\r?\n/g, "\r"));
  event.preventDefault();
});
document.getElementById("bell").addEventListener("click", () => {
  bell();
  paper.focus();
});

// --- the socket ------------------------------------------------------------------------
function showStatus(s) {
  const doing = state.ended ? "stopped" : s.waiting ? "waiting for you" : "running";
  statusLine.textContent =
    `PDP-6 time ${s.emulated_s.toFixed(1)} s · wall ${s.wall_s.toFixed(1)} s · ${doing}` +
    (s.engine ? ` · ${s.engine} engine` : "");
}

const handlers = {
  hello(m) {
    document.title = m.title;
    document.getElementById("title").textContent = m.title;
    state.phosphor = new Phosphor(canvas, m.phosphor);
  },
  print(m) {
    print(m.text);
  },
  note(m) {
    note(m.text);
  },
  status(m) {
    showStatus(m);
  },
  error(m) {
    messageLine.textContent = m.message;
  },
  ended() {
    state.ended = true;
    statusLine.textContent += " · the machine has stopped";
  },
};

socket.addEventListener("message", (event) => {
  if (event.data instanceof ArrayBuffer) {
    const start = performance.now();
    state.phosphor?.add(event.data);
    state.owed = true; // "took" once these points are drawn
    state.costMs += performance.now() - start;
    nextFrame();
    return;
  }
  const message = JSON.parse(event.data);
  handlers[message.type]?.(message);
});
// Leaving the page ends its machine at once (a page kept in the back-forward cache would
// otherwise keep its socket, and the machine, open).
window.addEventListener("pagehide", () => socket.close(1000, "the page was closed"));
socket.addEventListener("close", (event) => {
  state.ended = true;
  const why = event.reason ? `: ${event.reason}` : "";
  messageLine.textContent = `the connection to the machine is closed (${event.code}${why}); reload for a new one`;
});

// --- the screen, at the display's frame rate -------------------------------------------
// The server sends the next points once these are drawn ("took", with the time they
// took: while the machine computes it spaces its frames to keep drawing within a share
// of the wall time).  A hidden tab draws nothing, and so is sent nothing.  A frame is
// asked for only when points have come: with nothing to draw the page is idle.
let frameAsked = false;
function nextFrame() {
  if (!frameAsked) {
    frameAsked = true;
    requestAnimationFrame(frame);
  }
}

function frame() {
  frameAsked = false;
  const p = state.phosphor;
  if (p && !state.frozen && p.now !== p.drawnAt) {
    const start = performance.now();
    p.draw();
    state.costMs += performance.now() - start;
    state.frames += 1;
    if (state.firstPictureMs === null && p.count > 0) state.firstPictureMs = performance.now();
  }
  if (state.owed) {
    send({ type: "took", ms: Math.min(60000, state.costMs) });
    state.owed = false;
    state.costMs = 0;
  }
}
paper.focus();
