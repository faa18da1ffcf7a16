package report

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strings"

	"pbem/engine"
	"pbem/engine/play"
	"pbem/events"
)

// The HTML campaign report: one self-contained page (inline SVG, CSS and
// script; nothing fetched) that replays the game on the drawn map, step
// by step, as the viewer of the export saw it: a slider, step buttons
// and the keyboard (← → Home End), each step told in sentences, its dice
// with their numbers and how to verify them, overrides and rollbacks
// marked, and each side's strength over time as a small chart.

// htmlStep is one step of the replay: the game's start, a decision, or
// its end, and the board after it.
type htmlStep struct {
	Seq    uint64   `json:"seq"`
	Turn   int      `json:"turn"`
	Line   string   `json:"line"`
	Kind   string   `json:"kind"` // start, order, rejected, override, rollback, end
	Closed string   `json:"closed,omitempty"`
	Told   []string `json:"told,omitempty"`
	Dice   []string `json:"dice,omitempty"`
	Board  []int    `json:"board"` // indices into htmlReport.Parts
	Count  []int    `json:"count,omitempty"`
}

type htmlReport struct {
	Title      string     `json:"title"`
	Head       []string   `json:"head"`
	Sides      []string   `json:"sides"`
	CountUnit  string     `json:"countUnit"`
	Parts      []string   `json:"parts"`
	Steps      []htmlStep `json:"steps"`
	Game       string     `json:"game"`
	Commitment string     `json:"commitment"`
	Seed       string     `json:"seed,omitempty"` // revealed at the game's end, never before
	// Family links a campaign to the reports of its battles, and a
	// battle to its campaign's (not in the JSON: the page's nav).
	Family []familyLink `json:"-"`
}

// familyLink is a link to a linked game's report, GAME.html beside this
// one (pbem export GAME --format html > GAME.html).
type familyLink struct {
	Game, Text string
}

// parts keeps each distinct piece of SVG (or an ASCII board in a <pre>)
// once.
type parts struct {
	list  []string
	index map[string]int
}

func (p *parts) add(s string) int {
	if i, ok := p.index[s]; ok {
		return i
	}
	p.index[s] = len(p.list)
	p.list = append(p.list, s)
	return len(p.list) - 1
}

// htmlBoard is the viewer's board of g now, as parts: drawn when the
// rule system draws (engine.Drawer), else the ASCII board.
func (x Exporter) htmlBoard(g *play.Game, ps *parts) []int {
	v := g.Rules.View(g.State, x.Viewer)
	if d, ok := g.Rules.(engine.Drawer); ok {
		if sc := d.Draw(v); sc != nil {
			var out []int
			for _, s := range sc.SVGParts() {
				out = append(out, ps.add(s))
			}
			return out
		}
	}
	return []int{ps.add("<pre class=\"ascii\">" + html.EscapeString(g.Rules.Render(v).Full) + "</pre>")}
}

func (x Exporter) htmlData() (*htmlReport, error) {
	rep := &htmlReport{Game: x.Game}
	ps := &parts{index: map[string]int{}}
	inputs := map[uint64]events.Payload{}
	var before engine.State // the state before the event at hand
	var g *play.Game
	step := func(seq uint64, kind, line string) *htmlStep {
		st := htmlStep{Seq: seq, Kind: kind, Line: line, Board: x.htmlBoard(g, ps)}
		if t, ok := g.Rules.(engine.Turner); ok {
			st.Turn = t.Turn(g.State)
		}
		if c, ok := g.Rules.(engine.Counter); ok {
			for _, sc := range c.Count(g.Rules.View(g.State, x.Viewer)) {
				st.Count = append(st.Count, sc.Value)
				if len(rep.Sides) < len(st.Count) {
					rep.Sides, rep.CountUnit = append(rep.Sides, sc.Side), sc.Unit
				}
			}
		}
		rep.Steps = append(rep.Steps, st)
		return &rep.Steps[len(rep.Steps)-1]
	}
	seenBattle := map[string]bool{}
	err := x.each(func(gg *play.Game, e *events.Envelope, p events.Payload) error {
		g = gg
		defer func() {
			before = g.State
			// Each battle the campaign waited on, in the order opened.
			for _, b := range play.Battles(g) {
				if id := play.BattleID(g, b); !seenBattle[id] {
					seenBattle[id] = true
					rep.Family = append(rep.Family, familyLink{Game: id, Text: fmt.Sprintf("%s, fought out as battle %s (%s %s)", b.What, id, b.System, b.Scenario)})
				}
			}
		}()
		if g.Rules == nil {
			return nil
		}
		if events.IsInput(e.Type) && p != nil {
			inputs[e.Seq] = p
		}
		switch p := p.(type) {
		case *events.GameCreated:
			rep.Commitment = p.SeedCommitment.Hex()
			step(e.Seq, "start", fmt.Sprintf("seq %d  the game begins: %s, scenario %s", e.Seq, p.Ruleset, p.ScenarioName))
		case *events.GameEnded:
			if len(p.Seed) > 0 {
				rep.Seed = hex.EncodeToString(p.Seed)
			}
			w := p.Winner
			if w == "" {
				w = "none (a draw)"
			}
			step(e.Seq, "end", fmt.Sprintf("seq %d  the game ends: %s; winner %s", e.Seq, p.Reason, w))
		case *events.OrderAccepted, *events.OrderRejected:
			in := play.InputOf(p)
			ip, ok := inputs[in]
			if !ok {
				return nil
			}
			delete(inputs, in)
			// The line says who sent what and what came of it; the facts
			// are told in sentences below it (their raw form stays in pbem
			// log), a rejection's problems on the line.
			line, kind := fmt.Sprintf("seq %d  %s → accepted", in, play.InputLineOf(ip)), "order"
			acc, accepted := p.(*events.OrderAccepted)
			if !accepted {
				line, kind = play.TimelineLineOf(in, ip, p), "rejected"
			}
			if rc, ok := ip.(*events.RefereeCommand); ok && accepted && play.IsOverride(rc.Text, acc) {
				kind = "override"
			}
			st := step(e.Seq, kind, line)
			if !accepted {
				return nil
			}
			for _, f := range acc.Facts {
				if f.Kind == play.FactRollback {
					st.Kind = "rollback"
				}
				if s := g.Tell(before, f); s != "" {
					st.Told = append(st.Told, s)
				}
			}
			for _, d := range acc.Dice {
				st.Dice = append(st.Dice, fmt.Sprintf("die #%d d%d = %d (%s)", d.Index, d.Sides, d.Value, d.Purpose))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if g == nil || g.Created == nil || len(rep.Steps) == 0 {
		return nil, fmt.Errorf("export %s: the log is empty", x.Game)
	}
	for i := range rep.Steps {
		if b, ok := play.InBranch(g.Branches, rep.Steps[i].Seq); ok {
			rep.Steps[i].Closed = fmt.Sprintf("closed branch: rolled back at seq %d", b.By)
		}
	}
	if c, what := play.ParentText(g); c != "" {
		rep.Family = append([]familyLink{{Game: c, Text: "this game is " + what}}, rep.Family...)
	}
	r := &report{g: g, who: x.Who}
	for _, st := range rep.Steps {
		if st.Kind != "start" && st.Kind != "end" {
			r.decisions++
		}
	}
	hd := r.header()
	rep.Title, rep.Head = hd[0], hd[1:]
	rep.Parts = ps.list
	return rep, nil
}

// HTML writes the campaign report as one self-contained HTML page.
func (x Exporter) HTML(w io.Writer) error { return x.Page(w, PageOptions{}) }

// PageOptions make the campaign report a live page served over HTTP
// (package web): the page's script carries a CSP nonce, a section of
// what stands now is shown above the replay, and the replay opens at its
// last step. The zero value is the exported report, byte for byte.
type PageOptions struct {
	// Nonce is the Content-Security-Policy nonce of the page's one script.
	Nonce string
	// Now is HTML put between the header and the replay (trusted: the
	// caller escapes what it holds).
	Now string
	// AtEnd opens the replay at its last step (the game as it stands).
	AtEnd bool
}

// Page writes the campaign report as one self-contained HTML page, made
// as opts say.
func (x Exporter) Page(w io.Writer, opts PageOptions) error {
	rep, err := x.htmlData()
	if err != nil {
		return err
	}
	data, err := json.Marshal(rep) // escapes <, > and &: safe inside <script>
	if err != nil {
		return err
	}
	esc := html.EscapeString
	var head strings.Builder
	for _, l := range rep.Head {
		head.WriteString(esc(strings.TrimSpace(l)) + "<br>\n")
	}
	page := reportPage
	if opts.Nonce != "" {
		page = strings.Replace(page, "\n<script>\n", "\n<script nonce=\""+esc(opts.Nonce)+"\">\n", 1)
	}
	if opts.Now != "" {
		page = strings.Replace(page, "</header>\n", "</header>\n"+strings.ReplaceAll(opts.Now, "%", "%%")+"\n", 1)
	}
	if len(rep.Family) > 0 {
		var nav strings.Builder
		nav.WriteString(`<nav class="family">`)
		for _, l := range rep.Family {
			nav.WriteString(`<p><a href="` + esc(l.Game) + `.html">` + esc(l.Text) + `</a></p>`)
		}
		nav.WriteString("</nav>")
		page = strings.Replace(page, "</header>\n", "</header>\n"+strings.ReplaceAll(nav.String(), "%", "%%")+"\n", 1)
	}
	if opts.AtEnd {
		page = strings.Replace(page, "\nshow(0);\n", "\nshow(D.steps.length - 1);\n", 1)
	}
	_, err = fmt.Fprintf(w, page, esc(rep.Title), esc(rep.Title), head.String(), data)
	return err
}

// reportPage is the page: title, title, header lines, data (JSON).
const reportPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>
* { box-sizing: border-box; }
body { font-family: Georgia, "Times New Roman", serif; margin: 0; padding: 0.5em 1em 2em; color: #222; background: #faf8f0; }
h1 { font-size: 1.3em; margin: 0.3em 0; }
header p { margin: 0.2em 0 0.6em; font-size: 0.85em; color: #555; }
#controls { position: sticky; top: 0; background: #faf8f0; padding: 0.4em 0; display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; border-bottom: 1px solid #ddd; z-index: 2; }
#controls button { font-size: 1.1em; min-width: 2.4em; padding: 0.2em 0.4em; }
#slider { flex: 1 1 12em; min-width: 8em; }
#where { font-family: Menlo, Consolas, monospace; font-size: 0.85em; white-space: nowrap; }
main { display: flex; flex-wrap: wrap; gap: 1em; margin-top: 0.6em; }
#map { flex: 3 1 30em; min-width: 0; }
#map svg { width: 100%%; height: auto; display: block; border: 1px solid #ccc; background: #fff; }
#map pre, pre.ascii { font-family: Menlo, Consolas, monospace; font-size: 0.7em; overflow-x: auto; background: #f3efe2; padding: 0.5em; }
aside { flex: 2 1 18em; min-width: 0; }
#step { background: #fff; border: 1px solid #ddd; padding: 0.6em 0.8em; }
#step .line { font-family: Menlo, Consolas, monospace; font-size: 0.8em; word-break: break-word; }
#step ul { padding-left: 1.2em; margin: 0.4em 0; }
.dice li { font-family: Menlo, Consolas, monospace; font-size: 0.85em; }
.badge { display: inline-block; font-size: 0.75em; padding: 0.05em 0.5em; border-radius: 0.8em; margin-right: 0.3em; color: #fff; background: #666; }
.badge.override { background: #a02020; }
.badge.rollback { background: #b06000; }
.badge.rejected { background: #777; }
.badge.closed { background: #999; }
#chart svg { width: 100%%; height: auto; background: #fff; border: 1px solid #ddd; }
#steps { max-height: 22em; overflow-y: auto; font-family: Menlo, Consolas, monospace; font-size: 0.75em; padding-left: 0; list-style: none; border: 1px solid #ddd; background: #fff; }
#steps li { padding: 0.15em 0.4em; cursor: pointer; border-bottom: 1px solid #f0f0f0; }
#steps li.cur { background: #fde9a8; }
#steps li.override { color: #a02020; }
#steps li.rollback { color: #b06000; }
#steps li.closed { text-decoration: line-through; color: #999; }
details { margin-top: 0.8em; font-size: 0.85em; }
details pre { font-size: 0.85em; overflow-x: auto; background: #f3efe2; padding: 0.5em; }
@media (max-width: 40em) { body { padding: 0.3em; } #controls button { min-width: 2.8em; min-height: 2.4em; } }
</style>
</head>
<body>
<header><h1>%s</h1><p>%s</p></header>
<div id="controls" role="toolbar" aria-label="replay">
<button id="first" title="first step (Home)" aria-label="first step">|&#x25C0;</button>
<button id="prev" title="previous step (&#x2190;)" aria-label="previous step">&#x25C0;</button>
<input id="slider" type="range" min="0" value="0" aria-label="step">
<button id="next" title="next step (&#x2192;)" aria-label="next step">&#x25B6;</button>
<button id="last" title="last step (End)" aria-label="last step">&#x25B6;|</button>
<select id="turns" aria-label="jump to a turn"></select>
<span id="where"></span>
</div>
<main>
<div id="map" aria-live="polite"></div>
<aside>
<div id="step"></div>
<div id="chart"></div>
<ol id="steps"></ol>
<details><summary>How to verify the dice</summary>
<p>Every die is drawn from a secret seed fixed when the game was created; its SHA-256, the commitment, is <code id="commitment"></code>. <span id="seedline"></span>
Run <code>pbem verify <span class="game"></span></code> on the game's log to check every die, or recompute die #i with d sides yourself:</p>
<pre>import hashlib, hmac, struct

def roll(seed: bytes, game: str, index: int, sides: int) -&gt; int:
    limit = ((2**64 - 1) // sides) * sides
    attempt = 0
    while True:
        msg = game.encode() + b"\x00" + struct.pack("&gt;Q", index) + struct.pack("&gt;I", attempt)
        x = struct.unpack("&gt;Q", hmac.new(seed, msg, hashlib.sha256).digest()[:8])[0]
        if x &lt; limit:
            return 1 + x %% sides
        attempt += 1

# first: hashlib.sha256(seed).hexdigest() == the commitment</pre>
</details>
</aside>
</main>
<script>
"use strict";
const D = %s;
const $ = (id) => document.getElementById(id);
const slider = $("slider"), map = $("map");
let cur = -1;
slider.max = D.steps.length - 1;
$("commitment").textContent = D.commitment;
document.querySelectorAll(".game").forEach((e) => { e.textContent = D.game; });
$("seedline").textContent = D.seed ? "The game is over and the seed is revealed: " + D.seed + "." : "The seed is revealed when the game ends.";
const esc = (s) => s.replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
function board(st) {
  const ps = st.board.map((i) => D.parts[i]);
  return ps[0].startsWith("<svg") ? ps.join("") + "</svg>" : ps.join("");
}
const badges = {override: "override", rollback: "rollback", rejected: "rejected", start: "start", end: "game over"};
function show(i) {
  i = Math.max(0, Math.min(D.steps.length - 1, i));
  if (i === cur) return;
  cur = i;
  const st = D.steps[i];
  map.innerHTML = board(st);
  slider.value = i;
  $("where").textContent = "step " + (i + 1) + " of " + D.steps.length + (st.turn ? ", turn " + st.turn : "") + ", seq " + st.seq;
  let h = "";
  if (badges[st.kind]) h += '<span class="badge ' + st.kind + '">' + badges[st.kind] + "</span>";
  if (st.closed) h += '<span class="badge closed">' + esc(st.closed) + "</span>";
  h += '<div class="line">' + esc(st.line) + "</div>";
  if (st.told && st.told.length) h += "<ul class=\"told\">" + st.told.map((s) => "<li>" + esc(s) + "</li>").join("") + "</ul>";
  if (st.dice && st.dice.length) h += '<ul class="dice">' + st.dice.map((s) => "<li>" + esc(s) + "</li>").join("") + '</ul><a href="#" class="verify">how to verify these dice</a>';
  $("step").innerHTML = h;
  const v = $("step").querySelector(".verify");
  if (v) v.onclick = (ev) => { ev.preventDefault(); const d = document.querySelector("details"); d.open = true; d.scrollIntoView(); };
  document.querySelectorAll("#steps li").forEach((li, k) => { li.classList.toggle("cur", k === i); });
  const li = $("steps").children[i];
  if (li) li.scrollIntoView({block: "nearest"});
  chart();
  let t = 0;
  for (let k = 0; k < turnFirst.length; k++) if (turnFirst[k][1] <= i) t = k;
  if (turnFirst.length) $("turns").selectedIndex = t;
}
const turnFirst = [];
D.steps.forEach((st, i) => {
  if (st.turn && (!turnFirst.length || turnFirst[turnFirst.length - 1][0] !== st.turn)) turnFirst.push([st.turn, i]);
  const li = document.createElement("li");
  li.textContent = st.line;
  li.className = st.kind + (st.closed ? " closed" : "");
  li.onclick = () => show(i);
  $("steps").appendChild(li);
});
turnFirst.forEach(([t, i]) => { const o = document.createElement("option"); o.value = i; o.textContent = "turn " + t; $("turns").appendChild(o); });
if (!turnFirst.length) $("turns").style.display = "none";
$("turns").onchange = (e) => show(+e.target.value);
function chart() {
  if (!D.sides || !D.sides.length) { $("chart").innerHTML = ""; return; }
  const W = 320, H = 130, L = 34, B = 18, T = 18;
  let max = 1;
  D.steps.forEach((s) => (s.count || []).forEach((v) => { max = Math.max(max, v); }));
  const n = Math.max(1, D.steps.length - 1);
  const X = (i) => L + (W - L - 6) * i / n, Y = (v) => T + (H - T - B) * (1 - v / max);
  const colours = ["#284696", "#8a8a84", "#a02020", "#207020"];
  let s = '<svg viewBox="0 0 ' + W + " " + H + '" role="img" aria-label="strength over time">';
  s += '<text x="4" y="12" font-size="10">' + esc(D.countUnit || "strength") + " by side over the game (losses are the fall)</text>";
  s += '<line x1="' + L + '" y1="' + Y(0) + '" x2="' + (W - 6) + '" y2="' + Y(0) + '" stroke="#999"/>';
  s += '<text x="2" y="' + (Y(max) + 4) + '" font-size="9">' + max + "</text>" + '<text x="2" y="' + Y(0) + '" font-size="9">0</text>';
  D.sides.forEach((side, k) => {
    const pts = D.steps.map((st, i) => X(i).toFixed(1) + "," + Y((st.count || [])[k] || 0).toFixed(1)).join(" ");
    s += '<polyline fill="none" stroke-width="2" stroke="' + colours[k %% colours.length] + '" points="' + pts + '"/>';
    const c = D.steps[cur].count || [], first = D.steps[0].count || [];
    s += '<text x="' + (L + 4 + k * 140) + '" y="' + (H - 4) + '" font-size="10" fill="' + colours[k %% colours.length] + '">' + esc(side) + " " + (c[k] || 0) + " (lost " + ((first[k] || 0) - (c[k] || 0)) + ")</text>";
  });
  s += '<line x1="' + X(cur) + '" y1="' + T + '" x2="' + X(cur) + '" y2="' + Y(0) + '" stroke="#d08000" stroke-dasharray="3 2"/>';
  $("chart").innerHTML = s + "</svg>";
}
slider.oninput = () => show(+slider.value);
$("first").onclick = () => show(0);
$("prev").onclick = () => show(cur - 1);
$("next").onclick = () => show(cur + 1);
$("last").onclick = () => show(D.steps.length - 1);
document.addEventListener("keydown", (e) => {
  if (e.target && e.target.tagName === "SELECT") return;
  const k = {ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: D.steps.length - 1}[e.key];
  if (k !== undefined) { e.preventDefault(); show(k); }
});
show(0);
</script>
</body>
</html>
`
