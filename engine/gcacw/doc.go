// Package gcacw is the rule system of Great Campaigns of the American Civil
// War (Standard Series Rules v1.4, sections 1 to 5.2, as rendered in
// shared/rules/gcacw.md) for pbem: it sets a game up from a scenario file,
// reads the players' orders by mail (MARCH, ACTIVATE, ASSAULT, GRAND
// ASSAULT, TAKE, PASS, TRANSFER, QUEUE, CANCEL, STANDING, CAVALRY RETREAT,
// RETREAT, UNDO, HELP, STATUS) and the referee's rulings (RULE …, SET …), rolls the
// dice the rules call for, records every step as small facts, and draws
// the board as plain text
// (board.go: the viewer's enemy ZOC, every in-hex feature, routes across
// the hexsides they cross, leaders by name).
//
// The ruleset is pure: no clock, no I/O (scenarios and their tables come in
// as bytes, or from the files embedded in the package), dice only from the
// engine, and no map iteration that reaches a fact or a board.
//
// What the published rules give only by reference (the Terrain Effects
// Chart, the Extended March Table, the Strength markers' disorganized
// values, the Random Events Table, the BAC/AIO initiative tie tables) is
// data loaded with the scenario. Where the rules stop, a scenario may give
// the step as house-rule data (house.go: the Reorganization Phase, how
// cavalry retreats, where a lone leader goes, victory conditions), marked
// SAMPLE in the shipped files. Where a scenario gives neither, the step
// goes to the referee: a fact records the pending ruling, Prompt asks the
// referee, and the ruling arrives as a RULE order from engine.RefereeSide.
// RefereeSteps (steps.go) names every step a scenario leaves to a referee,
// so that pbem new refuses such a game without one. Choices that are the
// players' (a Cavalry Retreat, GCACW 5.1.2) are asked of them, or answered
// in advance by a standing order (retreat.go).
//
// Assaults (assault.go; GCACW 5b, 5.1.5, 2.2k/l) are checked against
// what the seed says (5.2b, 2.2k-m, 2.5, 2.4) and resolved as the scenario
// chooses: by its [combat] house-rule table (combat.go, SAMPLE in the
// shipped files), or by the referee's structured commands (RULE LOSS,
// RETREAT, DISORGANIZED, FATIGUE, CASUALTY, ADVANCE, then DONE), each
// echoed with what it cost the unit (R10, Ambiguity A25). In table mode
// the one choice the table leaves to the defender is where its units
// retreat on a Dr result: the defender is asked by mail (RETREAT <unit>
// <hex>..., or PASS), with deadlines working as for any other step, and
// PASS, or a missed deadline whose default order is PASS, takes the
// retreat the table mode would pick, which the question names
// (fallback.go). Which unit takes a loss is the table's rule, not a
// choice (the unit with the most Manpower), and the seed itself gives the
// defender no choice at all, since it gives no combat procedure.
//
// Victory (R24): every shipped scenario states its victory conditions
// as data ([victory]). Counted by pbem, they are a house rule, and every
// board shows the points as they stand; with "decide referee" (what a
// NAME-refereed scenario carries, Refereed) the referee decides the result
// after the last turn, every board shows the conditions' state (who holds
// each objective, the Manpower lost, the points by their count), the
// referee's question names it, and the game-over mail gives it beside the
// ruling (victory.weighed).
//
// Players' mails use the rules' own numbers; R-numbers and ambiguity ids
// (gcacw.md's) stay in the facts, pbem log and this file (plainRule).
//
// Where the seed reads two ways (gcacw.md's ambiguities A9, A12, A15, A18,
// A26, 2.4c and R15), gcacw.md's reading is the default and a scenario's
// "reading" line chooses another (readings.go); the welcome mail lists
// every reading a game plays with (Explain, explain.go).
//
// The referee also corrects any field of the state with SET (a unit's
// hex, strength, fatigue and counter sides, a leader's unit, the turn,
// phase and action cycle), each line one "set" fact naming the field's old
// and new value (set.go).
//
// GCACW is written with the engine's kit: rules (ruleset.go) is the rule
// system on its own types, and engine.Adapt makes it the engine's
// Ruleset, with the optional parts its Extras give (EvolveAll,
// RefereeSteps, Explain, Draw, Count, its state coding); a decision runs on engine.Decide, whose Sim applies each fact
// as it is emitted (decide.go's sim adds GCACW's steps to it). Every fact
// has a schema and is told in words for the players' mails (tell.go); the
// decision's echo keeps lines of its own (echoLine), logged with it. A
// side's queued and standing orders, and the facts and echo lines that
// keep them, are seen by that side (and the referees) alone.
//
// Rule IDs (GCACW 5.1-FM.2 …) are cited in comments where a rule is
// implemented and in the names of the tests that check it.
//
// Non-normative IDs, with no engine behaviour and so no test:
//   - GCACW 1e: advice to the players (agree before play which rules they
//     use; use the SSR in full). The choices an engine makes are the
//     scenario's game and option lines, which the rules they govern test.
//   - GCACW 2.2f: a historical note on the demi-division. Its one rule,
//     the X+ size being Confederate only, is GCACW 2.2e.
//   - GCACW 2.3c: how terrain is drawn on the printed map (colours and
//     patterns), needed only to digitise a map. Scenarios give each hex's
//     terrain type by name (GCACW 2.3a), never by colour.
package gcacw
