package engine

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"pbem/events"
)

// Linked games: a campaign's rule system (GCACW) may have an engagement
// fought out as a game of another rule system (a tactical battle) and
// carry its result back. The rule systems never import each other: the
// campaign's ruleset says, as data, which battles its state waits on and
// what order carries a battle's end back; the runtime (engine/play)
// creates the battle games and appends that order to the campaign.

// Battle is an engagement a campaign's state waits on, to be fought out
// as a game of another rule system.
type Battle struct {
	// Key names the battle within its campaign, unique in the campaign's
	// game ("t2-a5-0711"); the battle's game id is derived from it.
	Key string
	// What says what is fought out, for the players: "the assault on 0711".
	What     string
	System   string // the tactical rule system's name ("gbacw")
	Scenario string // its built-in scenario
	// Sides map each campaign side to the tactical side it plays.
	Sides []BattleSide
	// Forces say how the campaign's units become the tactical forces, one
	// line each ("ORNE as Hale's Brigade"); none when the referee sets
	// the battle up.
	Forces []string
	// Muster are the forces the campaign's mapping sets the battle up
	// with (MusterText), the units in the engagement now; none when the
	// referee sets it up (RefereeForces) or the mapping names none.
	Muster        []BattleForce
	RefereeForces bool
}

// BattleSide is a campaign side and the tactical side it plays.
type BattleSide struct {
	Side     string
	Tactical string
}

// Campaign side of tactical side t, or "".
func (b Battle) Campaign(t string) string {
	for _, s := range b.Sides {
		if s.Tactical == t {
			return s.Side
		}
	}
	return ""
}

// BattleEnd is how a battle ended, as its own log says: its game id, the
// hash of its last event, the winner (a tactical side, "" for a draw) and
// each tactical side's losses as the tactical game counts them (none when
// its rule system does not count them: LossCounter).
type BattleEnd struct {
	Game   string
	Final  events.Hash
	Winner string
	Reason string
	Lost   map[string]int
	Routed string // a tactical side whose units routed or retreated, or ""
}

// Linker is implemented by a campaign rule system whose state may wait on
// battles fought out in other rule systems.
type Linker interface {
	// Battles are the battles state s waits on.
	Battles(s State) []Battle
	// BattleResult is the referee's order that carries the end of battle
	// b back into the campaign.
	BattleResult(b Battle, end BattleEnd) string
}

// BattlePlanner is implemented by a campaign rule system whose scenario
// may say how its units map to the forces of tactical scenarios: the
// runtime, which has every rule system and their scenarios (the rule
// systems never import each other), checks each mapping against the
// tactical scenario it names when the campaign is created, so a force
// the tactical scenario lacks is refused then, not found when a battle
// fails to open.
type BattlePlanner interface {
	// BattlePlans are the battles scenario may have fought out, as its
	// mapping writes them.
	BattlePlans(scenario []byte) ([]BattlePlan, error)
}

// BattlePlan is one battle a campaign scenario may have fought out: the
// tactical system and scenario, the sides, and each force its mapping
// sets up (at full strength), with the scenario lines that say so.
type BattlePlan struct {
	Line     int    // the campaign scenario's line of the battle entry
	What     string // for the operator: "the battle for 1007"
	System   string
	Scenario string
	Sides    []BattleSide
	Forces   []PlannedForce
}

// PlannedForce is one mapped force of a BattlePlan and the campaign
// scenario's line that maps it.
type PlannedForce struct {
	Line  int
	Unit  string // the campaign unit as the mapping's line names it
	Force BattleForce
}

// LossCounter is implemented by a tactical rule system that counts each
// side's losses (what a campaign's result table may read).
type LossCounter interface {
	Losses(s State) map[string]int
}

// BattleForce is one tactical force of a battle set up by its campaign's
// mapping: the force, the tactical side it fights on, and the campaign
// unit it stands for, with that unit's strength now and at the start of
// the campaign's scenario (its share left is what the force fights
// with, by the campaign scenario's house rule).
type BattleForce struct {
	Side    string // the tactical side
	Force   string // the force as the tactical scenario names it
	Unit    string // the campaign unit's name, for the players
	Present int    // the campaign unit's strength now
	Start   int    // its strength at the start of the campaign's scenario
}

// MusterWord starts a line of the forces a campaign sets a battle up
// with, appended to the tactical scenario when the battle is created (so
// the battle's creation holds them, and every replay, verify and audit
// sets it up the same):
//
//	muster "<tactical side>" "<force>" <present>/<start> "<campaign unit>"
//
// A rule system reads them with SplitMuster, before the rest of its
// scenario. Where a side has muster lines, only those forces take part,
// each at its unit's share left (BattleForce.Scale); a side with none
// fights with the scenario's forces as written.
const MusterWord = "muster"

// MusterText is the lines of forces to append to a tactical scenario.
func MusterText(forces []BattleForce) string {
	var b strings.Builder
	if len(forces) > 0 {
		b.WriteString("\n# The forces the campaign sets this battle up with (a house rule, SAMPLE).\n")
	}
	for _, f := range forces {
		fmt.Fprintf(&b, "%s %q %q %d/%d %q\n", MusterWord, f.Side, f.Force, f.Present, f.Start, f.Unit)
	}
	return b.String()
}

var musterLexer = Lexer{Comments: true}

// SplitMuster takes the muster lines out of a scenario: the scenario
// without them (each blanked, so the other lines keep their numbers) and
// the forces they name, in order, a force named by several lines (two
// campaign units in one force) merged into one with their strengths
// added.
func SplitMuster(scenario []byte) ([]byte, []BattleForce, error) {
	if !bytes.Contains(scenario, []byte(MusterWord)) {
		return scenario, nil, nil
	}
	lines := strings.Split(string(scenario), "\n")
	var out []BattleForce
	for i, l := range lines {
		ws, err := musterLexer.Words(l)
		if err != nil || len(ws) == 0 || !strings.EqualFold(ws[0], MusterWord) {
			continue
		}
		const form = `muster "<tactical side>" "<force>" <present>/<start> "<campaign unit>"`
		if len(ws) != 5 {
			return nil, nil, fmt.Errorf("line %d: write %s", i+1, form)
		}
		p, s, ok := strings.Cut(ws[3], "/")
		present, err1 := strconv.Atoi(p)
		start, err2 := strconv.Atoi(s)
		if !ok || err1 != nil || err2 != nil || present < 0 || start <= 0 {
			return nil, nil, fmt.Errorf("line %d: %q is not a strength now and at the start, such as 4/6 (%s)", i+1, ws[3], form)
		}
		f := BattleForce{Side: ws[1], Force: ws[2], Unit: ws[4], Present: present, Start: start}
		merged := false
		for j := range out {
			if out[j].Side == f.Side && out[j].Force == f.Force {
				out[j].Present += f.Present
				out[j].Start += f.Start
				out[j].Unit += " and " + f.Unit
				merged = true
			}
		}
		if !merged {
			out = append(out, f)
		}
		lines[i] = ""
	}
	return []byte(strings.Join(lines, "\n")), out, nil
}

// Scale is n, the force's strength as its tactical scenario writes it,
// cut to its campaign unit's share left, rounded up (the campaign
// scenario's house rule, SAMPLE: the seeds give no conversion), and kept
// between least and n.
func (f BattleForce) Scale(n, least int) int {
	if f.Start <= 0 || f.Present >= f.Start {
		return n
	}
	v := (n*f.Present + f.Start - 1) / f.Start
	return min(max(v, least), n)
}

// Share says the campaign unit and its strength left, for the players:
// "Able, 4 of its 6 strength points".
func (f BattleForce) Share() string {
	return fmt.Sprintf("%s, %d of %d strength", f.Unit, f.Present, f.Start)
}

// MusterHeading is the heading of the welcome section that tells which
// forces fight a battle its campaign set up.
const MusterHeading = "The battle's forces, set up by the campaign (house rule, SAMPLE)"

// MusterRule is the house rule a battle set up by its campaign is played
// with, in plain words; measure is what the tactical system scales
// ("each unit's strength points").
func MusterRule(measure string) string {
	return "House rule (SAMPLE, no rules give it): the campaign scenario's mapping decides which forces fight, only those whose campaign units are in the assault; each fights with its campaign unit's share of the strength it started the campaign with, applied to " + measure + ", rounded up."
}
