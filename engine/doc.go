// Package engine is the contract between a rule system and the runtime
// that plays it: what a rule system is (Ruleset: pure functions from
// state, orders and dice to facts, and from state and fact to the next
// state), what it is given (Dice, Viewer) and what it gives back
// (Decision, Prompt, View, Board, Outcome), and a kit of helpers every
// rule system needs. The runtime that folds logs, decides inputs and runs
// games is package engine/play; rule systems import this package and
// never the runtime, the store or bbolt.
//
// Nothing here reads the clock or a global random source: the same log in
// gives the same state, the same boards and the same mails out.
//
// # Writing a rule system
//
// A rule system is one package under engine/ (engine/gcacw, engine/hra),
// written against its own types: implement Rules[S, O] for your state S
// and parsed order O, and hand Adapt(yours) to the binary's registry.
// engine/enginetest's Race is a whole rule system of two hundred lines in
// this style: read it first.
//
//   - Setup reads a scenario file. Tables the rule documents do not give
//     come from the scenario's data (ship a sample, marked SAMPLE), or the
//     step goes to the referee as a Prompt with Referee set; never a
//     silent default.
//   - Parse reads a side's order text (docs/ORDERS.md has
//     the conventions every system shares); a Problem carries the line, the
//     column of the offending word, what is wrong and the nearest valid form.
//   - Decide turns one action into facts with Decide and Sim: each fact
//     is applied as it is made, so the next rule reads the state after it.
//     Roll dice only through the Dice given; a roll for something hidden
//     goes through Dice.As(vis) so it is hidden with it; draw from a deck
//     with Shuffle or Deal. A decision that depends on dice the player
//     cannot foresee takes the player's conditions in the order ("FORCE IF
//     MA < 3") rather than asking mid-action.
//   - Every fact has a schema (Facts) and a sentence (Describe): players
//     read sentences, pbem log reads the raw fact. Declare the facts once
//     in a facts.go with a FactSet: a constant per kind, a typed field per
//     argument (Arg builds it, Of reads it), the schemas made from the
//     same declarations; a read on the wrong kind panics in the tests.
//   - Visibility: a fact, a die or an echo line only some may see says so
//     (events.ToSide, ToPlayer, ToReferees, UntilReveal); View leaves out
//     of the board what the viewer may not see. A simultaneous choice is
//     a Prompt with Sealed set: the runtime keeps each side's orders hidden
//     until every side has sent them, then decides them in turn.
//   - Prompt says who must act and gives examples that Decide accepts now.
//   - What your rule system may leave out it lists in Extras, on its own
//     types, and Adapt supplies the rest: EvolveAll (one copy of the state
//     per decision in a replay; by default Evolve fact by fact),
//     EvolveOwned (a fold changes the state it owns in place, copying each
//     shared part once per fold), InertFacts (the kinds of fact Evolve
//     leaves the state as it is, which a fold need not decode),
//     RefereeSteps (the steps a scenario leaves to a referee, so pbem new
//     refuses a game without one), Explain (your sections of the welcome,
//     HELP and STATUS mails), Draw and Count (the drawn board and each
//     side's strength), and the state's coding (by default its JSON, with
//     Attach giving a decoded state what it leaves out, the scenario).
//   - engine.Lexer reads a scenario's lines into words the same way in
//     every rule system that uses it.
//
// The caveats, each checked by the acceptance suite (enginetest.Run, which
// every rule system's tests call with scripts of their own and the mail
// renderer, composetest.New):
//
//   - States are immutable: Evolve and EvolveAll return a new state and
//     never change the one they were given (copy what you change).
//   - Evolve keeps nothing of a fact but its strings: a replay reuses the
//     memory of each decision's facts and lists for the next, so a list the
//     state keeps must be copied.
//   - No map iteration, clock or global random source may reach a fact, a
//     board or an order of anything: the same log must give the same bytes.
//   - A fact uses no kind with the runtime's "pbem." prefix, and matches
//     its schema; every fact is told in words.
//   - Nothing a viewer may not see reaches them: the leak test plays each
//     script again with another side's secrets changed (Script.Secrets, and
//     every die hidden from the viewer thrown from another seed) and
//     requires the viewer's mails, boards, log and answers to be the same
//     byte for byte until the reveal.
package engine
