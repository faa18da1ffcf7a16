// Package gbacw is the rule system of GMT's Great Battles of the American
// Civil War for pbem, as a player's crib notes give it
// (shared/rules/gbacw.md, rule IDs "GBACW n.m"): a hex map with
// elevation, units facing a vertex (two front, two flank and two rear
// hexes) or, in a March column, a hexside; stacks with an order; a d10
// whose 0 is 0; the UDD; a turn of Initiative, Command, Activation and
// End of Turn segments with activation markers drawn blind from a pool;
// fire with line of sight, non-phase fire, shock in its order a-i,
// artillery, cavalry, leaders, disorder and collapse. It is written with
// the rule-system kit (engine.Adapt): typed state and orders, facts made
// and applied at once, schemas and sentences for every fact.
//
// # A turn by mail
//
// BEGIN (either side) rolls the first turn's initiative (3.1, 4.1),
// traces the chain of command (3.2.1, 5), draws each corps' Efficiency
// Marker for its divisions' activation markers and each side's March AM
// count (3.2.2, 10.1, B5). Each side then sends its Command Segment
// mail, sealed (the kit's sealed step: neither reads the other's orders
// before both have sent them):
//
//	ORDER <brigade> ATTACK|ADVANCE|MARCH|RESERVE [FACE <side or vertex>]
//	                                               Division Orders (3.2.3),
//	                                               Reinforcement Orders (3.2.4),
//	                                               Reserve designation (3.2.5);
//	                                               FACE: the free turn to or from
//	                                               March (7.3), the player's
//	FIRST <division>|MARCH                         the initiative side's first AM (4.2)
//	DONE                                           nothing (more)
//
// The AMs go into the pool; the chosen one is activated first, the rest
// are drawn blind with the game's committed dice (a public roll of one of
// the pool's size: random, verifiable, not secret). Each activation is
// one mail of the side whose AM it is (3.3):
//
//	CHANGE <brigade> <order> [FACE <side or vertex>]   Order Change Phase: a dr (R6)
//	COORDINATE <brigade>, <brigade>           Multi-brigade coordination Phase: a dr (R7)
//	<unit>: MOVE <hex> <hex> ... [FACE <v>] [TOP|BOTTOM]   or MOVE TO <hex>
//	<unit>: FACE <vertex, or side for a column>
//	<unit>: WITHDRAW [<hex> [<hex>]]          Withdrawal Movement (9.5)
//	<unit>: FIRE AT <hex or unit> [AND <hex or unit>]      split fire (11.6)
//	<unit>[, <unit>]: SHOCK <hex or unit> [AND <hex or unit>] [ADVANCE [FACE <v>]]
//	                                          (CHARGE for mounted cavalry; AND: one
//	                                          combination of several hexes, 14.3a;
//	                                          FACE: the free turn after the advance, 7.3)
//	<unit>: RECOVER [FACE <v>]  |  BUILD  |  MOUNT  |  DISMOUNT  |  TOP  |  REFUSE
//	<brigade or division leader>: MOVE <hex> ... | MOVE TO <hex>   (17.1: 10 MP in
//	                                          each brigade's phase; a division leader's
//	                                          line goes in the phase of the brigade
//	                                          whose line comes before it)
//	DONE                                      the activation ends with nothing done
//
// The lines are sorted into the Action Phase of each brigade (3.3.3,
// 14.1), in the order of the brigades' first lines: its movement and
// fire in the order the mail gives them, then its shocks in that order
// (one combination per hex attacked; lines naming a hex in common are
// one combination of all the hexes they name), its recoveries and
// constructions; coordinated brigades share one phase. The seed fixes
// that sequence (its sequence of play: the Action Phase is "shock after
// movement and fire, recovery, construction, per brigade"; 14.1: a
// brigade shocks "after it has completed movement and fire"), so the
// player has no order to give between a brigade's moves and its shocks:
// a shock written before a move or fire of its own brigade's phase is
// accepted and carried out after them, and the sender is told which
// line went after which (TestGBACW_14_1_AShockWrittenFirstIsCarriedOutAfterItsBrigadesMoves);
// the dry run below checks the orders in that sequence. FIRE lines of a
// split regiment's units at one target are one fire (11.5). A mail's orders are first run
// dry on a copy with benign dice and no reactions: an order that could
// not be carried out even then rejects the mail whole, with the line and
// why. Carried out for real, an order the dice or a reaction made
// impossible (a move cut short by a disorder, a target gone) stops where
// it is, the moving side is told why, and the rest goes on: a mail is
// never half-refused after dice were rolled for it.
//
// When the pool is empty both sides move their army and corps
// commanders (3.4.1, MA 40) and may release reserves:
//
//	<army or corps leader>: MOVE <hex> ... | MOVE TO <hex>
//	RELEASE <brigade> ATTACK|ADVANCE|MARCH
//	DONE
//
// and when both have, the turn ends: leader replacement, recovery of
// reserves, their release, end-of-turn recovery (19.6), combat
// effectiveness (20.2, 20.3), the turn record; after the last turn the
// scenario's victory conditions decide the game.
//
// # Reactions without a mail round trip (docs/ORDERS.md, extended)
//
// The non-moving side's reactions are given in advance as standing
// orders and applied in the moving side's activation with no mail:
//
//	STANDING <reaction> [<unit>|<brigade>|ALL] <rule>
//	STANDING                     lists the side's standing orders, to it alone
//
// where <reaction> is REACTION FACE (7.6), RETURN FIRE (13.1), CLOSING
// FIRE (13.4), WITHDRAWAL FIRE (9.6, 13.3), PRE-SHOCK RETREAT (14.3b),
// PRE-SHOCK FIRE (13.2, 14.3e), WITHDRAW (the reaction withdrawal of
// mounted cavalry, 9.5a), COUNTER-CHARGE or ROUT (not a reaction but
// the choice of a rout's hex, R11: any rule but ASK takes the first hex
// unasked), and <rule> is ALWAYS, NEVER,
// ASK (asked by mail each time), CLEAR (take it back), or conditions
// joined by AND: IF DISORDERED, IF NOT DISORDERED, IF OUTNUMBERED (the
// enemy's stack has more SP than the unit's), IF FIRED ON, IF ADJACENT
// (which event calls for it: REACTION FACE answers both), IF FROM FRONT,
// IF FROM FLANK, IF FROM REAR, IF FROM FLANK OR REAR (where the enemy
// is, as the unit faces; "IF FIRED ON FROM FLANK" reads as IF FROM
// FLANK), AT INFANTRY|CAVALRY|ARTILLERY (the enemy's arm), WITHIN <n>
// (hexes). A unit's own standing order wins over its brigade's, its
// brigade's over its side's (ALL). docs/ORDERS.md's convention is kept; what
// is added is the scope written between the reaction and the rule, the
// condition words above, ASK and CLEAR, and the list. Standing orders
// are secret: their facts, echo and the board's list are seen by their
// side alone (and the referee); they take effect as they are applied,
// and that is public.
//
// A reaction no standing order covers (none, or ASK) is asked of the
// reacting side by mail: the activation's step waits (nothing of it is
// applied, the dice it rolled are kept and rolled from again when it
// goes on), the side is prompted with the situation and the examples
// "<REACTION>", "PASS" and a standing order that would answer it, and
// its answer (or standing orders that now cover it) carries the
// activation on, in the same decision. The game's deadline and its
// at-deadline order (PASS declines) apply to such a prompt as to any; a
// referee may ANSWER for the side. The question and its examples are the
// asked side's alone; the other side reads only that the game waits for
// it (and, in every mail's "who acts now", which reactions are asked).
// The questions one event raises for several units of a side (a move
// that several units could fire at or turn to) are asked in one mail:
// the step is run ahead on a copy, each question passed, to find them;
// the answer names each unit that reacts ("CLOSING FIRE 12th Georgia",
// a line each), PASS none (TestGBACW_13_4_OneQuestionForEveryUnitOneEventConcerns).
// A question that depends on another's answer (return fire after a
// reaction facing) may still come in a mail of its own. Where the reaction leaves the player a choice, the answer may make
// it: REACTION FACE <vertex>; PRE-SHOCK RETREAT <hex> where the retreat
// may end in two hexes or more (the question names them: a rear hex, or
// for mounted cavalry, which goes two hexes back, a hex two back,
// TestGBACW_14_3b_AMountedRetreatEndsWhereThePlayerChooses; none named,
// or a standing order, takes the first). The hex a routing unit ends in (R11) is its owner's
// choice in the same way, asked where the rout may end in two hexes or
// more (none where only one is open): "ROUT <unit> <hex>" among the
// hexes the question names; PASS, the deadline's order, or a standing
// order (STANDING ROUT [<unit>|<brigade>|ALL] ALWAYS) takes the first,
// the hex pbem took before it asked; the routs one event causes (a
// shock's two defenders) are asked in one mail, an answer holding when
// another unit's rout has changed the hexes open, else the first taken
// and said (TestGBACW_R11_TheRoutsOfOneEventAreAskedOnce). The other side reads only that the
// game waits (the rout is not told before its hex is chosen), in its
// mails, on its board, in "who acts now" and in the refusal of a mail
// it sends meanwhile (TestGBACW_R11_TheRoutHexIsThePlayers,
// TestGBACW_R11_ARoutWithOneHexIsNotAsked). Standing orders may be sent any time
// except in the sealed Command Segment, whose every line the other side
// reads when the orders are opened: there they are refused, with that
// reason.
//
// # The referee
//
// SET <unit|leader|brigade|division|GAME> <field> <value> corrects any
// field of the state (each told to everyone with its old value); RULE
// answers what the scenario's charts leave to the referee (a fire or
// shock result, an order change, a coordination, a construction, a
// turn's activation markers: "RULE <division> <n>", "RULE MARCH <side>
// <n>"); ANSWER <reaction>|PASS answers a reaction for a side; END (the
// runtime's) declares the result when a scenario has no victory
// conditions. RefereeSteps names what a scenario leaves to the referee,
// and 'pbem new' refuses such a game without one.
//
// # Charts and counters (R1-R19)
//
// Counters (R1, R19), the chain of command, command ranges (R9),
// initiative ratings (R15), reinforcements and victory conditions (R18)
// are the scenario's; the charts (R2 fire, R3 shock, R4 terrain, R5
// efficiency and March AMs, R6 order change, R7 coordination, R13
// construction, and the UDD, fire and shock DRMs) are a tables file's
// (scenarios/sample-tables.txt, marked SAMPLE: invented, not the
// published charts) or the scenario's own sections. The terrain and
// weapons charts are required (a game cannot move or fire without them:
// a scenario lacking them is refused at setup, with the reason); every
// chart of results may be left out, and then each such step goes to the
// referee. The sample scenario, Tanner's Mill, is original.
//
// # Readings where the notes are silent
//
//   - Front at range (7.1, 7.2): the 120° arc centred on the faced vertex,
//     its edges excluded; a March column's front is the 60° arc centred
//     on its side (one front hex, four flank, one rear). "Fired on from
//     the flank" and a shock "at the flank" use the same sectors.
//   - A turn of one point is free at the start of a move, after each hex,
//     along any road (road, pike, trail), to fire, on a recovery, on an
//     advance after combat and when the order changes to or from March;
//     two points or more in one hex cost 1 MP (7.3, 7.4). The points a
//     unit turns in one hex in a phase count together, however made (a
//     FACE, its turn to fire, the turn that leaves the hex): the first
//     time they reach 2 they cost 1 MP, once for the hex (option
//     turns-apart: each turn priced alone). The seed
//     charges MP for a paid turn and nothing else: it neither ends the
//     unit's movement (a MOVE may follow, with the MP left) nor counts
//     as moving (11.2, 11.4, 14.2a, 19.6). A stack's about-face in woods
//     on Attack orders (7.4) reverses the stack once: a unit turning
//     about to a facing a stack-mate has already turned about to this
//     phase pays its MP and leaves the order as it is. A changed order's facing: a vertex becomes its anticlockwise
//     side, a side the vertex clockwise of it.
//   - Line of sight (12.1-12.3): a line along a hex spine is clear if
//     either of its two readings is. A wall or crest hexside is an
//     obstacle of its height on the higher of its two hexes, judged by
//     12.1 wherever it lies on the line: a hexside alone blocks (12.3),
//     and the seed makes no exception for one bordering the firer's or
//     the target's hex, so none is made (two units either side of a
//     wall do not see each other).
//   - Extended Column (6.1, 10.4, R10): a unit on Advance orders that used
//     a road's rate in its last step, or a March column above 7 SP (4
//     mounted); its only effect the notes give is 7.6. Refused (R10): a
//     unit REFUSEs and is so until it moves; 7.6 and 10.7 are its effects.
//   - Passing through (8.4) is entering a hex with friendly units and
//     leaving it in the same move; its UDD is rolled on entering, its DRM
//     the cost of the next hex. 8.5 (a March column on a road) replaces
//     8.4's penalty with the other terrain's cost.
//   - Retreats (R11): into the unit's rear hexes keeping its facing, not
//     into an enemy's front hex without a friendly unit (14.3b);
//     Displacement is going one hex further where the stack is full; a
//     unit that cannot retreat stays and loses a strength point. 2D (a
//     disordered unit disordered again) is a step loss and a rout; a rout
//     is two hexes back, each into a hex a retreat may enter (its rear,
//     keeping its facing; not an enemy's front without a friend), ending
//     where its owner chooses among the hexes that allows (stopping after
//     one where no second is open), the unit then doing nothing but trying to
//     recover (a success brings it back to disordered); a collapsed unit
//     that routs leaves the map (20.1). Leaders go with a unit that
//     leaves them alone (17.6).
//   - Shock (14): the results table gives losses (the largest attacker,
//     the defender's top unit), retreats (every defending unit but
//     artillery), then disorder (14.3g); attackers advance (ADVANCE, in
//     the order written, as the stack takes them). The charge bonus of
//     14.3h is the chart's when every attacking infantry unit is on
//     Attack orders and has not fired; a mounted cavalry attacker charges
//     (14.3i) and is Blown until the next turn (R12); a mounted defender
//     charged by mounted cavalry may COUNTER-CHARGE (the chart's DRM; it
//     then gives no pre-shock fire, 16.3b). 14.2a binds only a unit
//     eligible to shock (14.2: an enemy in an enterable hex of its
//     front): an enemy in its flank or rear does not make it attack.
//     14.2a and 14.3a hold the orders as written (the dry run); what the
//     dice change during the activation is not held against them.
//     Pre-shock retreat is per unit. A combination of several defender
//     hexes (SHOCK 0704 AND 0705, 14.3a) needs each hex in the front of
//     one attacker and each attacker with one hex in its front; every
//     hex's top unit takes the defender's UDD (14.3d) and may give
//     pre-shock fire; the odds are of all the SP on both sides; the
//     defender's loss, terrain, works, facing and disorder DRMs are those
//     of the first unit of the first hex named (option shock-best-hex:
//     the facing, terrain, works and hexside DRMs of the hex named best
//     for the defender); an advance goes into the first hex named that
//     is left empty.
//   - Fire (11): phasing fire targets a hex and its result falls on the
//     top unit; non-phase fire on the unit it answers. Fire comes from
//     the top of the stack (11.1, B14): the stack's caps (infantry 7 SP,
//     mounted cavalry 4, artillery 12) are the stack's, counted from the
//     top down, and every unit they reach may fire with its share (two
//     batteries of 8 SP fire 8 and 4). Split units of one regiment
//     combine (11.5) when they fire at the same target: their FIRE lines
//     become one; at other targets, or one alone, they fire apart. A D result is a
//     disorder check (UDD). Return fire (13.1) may be made by the top
//     unit and each battery of the hex fired at, once per brigade
//     activation (B12); closing fire (13.4) happens at the first hex
//     entered within 3 hexes that a standing order's conditions accept.
//     Fire is into the front only (7.2): the free point of turn to fire
//     (7.3) is the phasing unit's; non-phase fire (return, pre-shock,
//     withdrawal and closing fire) is at a hex in the firer's front as
//     it stands, so a unit fired on from its flank returns fire only
//     after a reaction facing change (7.6) brings the firer in front.
//   - The March AM (10.1) is one marker in the pool; drawn, it activates
//     the side's March columns as many times as its draw gave (1-4), one
//     activation after the other, before the next AM is drawn. Every
//     activation has its Order Change Phase (3.3), the March AM's too, so
//     a March brigade may change its orders there (the seed forbids
//     nothing; option march-am-no-change: only in the Command Segment).
//   - Order changes in the Order Change Phase are one per brigade each
//     activation. The initiative side's first AM is part of its sealed
//     Command Segment mail (one mail, one action). Reserve brigades are
//     not activated and may not be ordered into reserve next to the enemy.
//   - Stacking by arm (8.2, 10.3, 16.5): dismounted cavalry is infantry,
//     so it stacks with any battery, and mounted cavalry only with horse
//     artillery; a unit may not MOUNT in a stack mounted cavalry could
//     not be in (8.1). In March, mounted cavalry with infantry or
//     dismounted cavalry is a mixing of arms, whatever the SP (10.3).
//   - Horse artillery (15.3) moves and stacks as cavalry and is free of
//     15.1 and 15.2; it fires as artillery.
//   - 5.x: each link of the chain is traced on its own (a killed superior
//     leaves his subordinates out of command); an out-of-command unit's
//     skipped activation is its division's first; a brigade that skips
//     one takes its out-of-command units' skips with it.
//   - Prepared Fire (11.4): the seed names the bonus only to take it from
//     a unit that moved in its phase, so it is the phasing unit's fire:
//     phase fire by a unit that has not moved this phase gets it, and
//     non-phase fire (return, closing, withdrawal, pre-shock) does not
//     (option prepared-fire-any: any fire by a unit that has not moved).
//   - End-of-turn recovery (19.6) is for units that "did not move": a
//     retreat or a rout is a combat result the unit suffers, not a move
//     it makes, so it does not count (option retreat-is-moving: it
//     does). Withdrawal Movement, a move of the unit's own, counts.
//   - 10.8's UDD is "with DRMs" and the seed gives no number: the sample
//     tables add none (a scenario may, "march-shocked" under [udd-drm]);
//     the stars of the leaders in the stack (18.4) apply.
//   - Stragglers (3.4) and what raises fatigue (R12) are not in the notes:
//     fatigue is kept (the referee may SET it) and only falls (3.4, 19.6);
//     stragglers are not modelled.
//
// The ambiguities B1-B21 are read as the spec reads them; a scenario line
// "option <name>" gives the other reading: b2-corps-orders,
// b3-oc-hexes, b4-tie-previous, b5-march-fixed=N, b6-trail-full,
// b7-attack-crossings, b8-two-plus-battery, b9-face-if-blocked,
// b10-double-only, b11-either, b12-once-per-am, b13-enemy-in-front,
// b14-one-firer, b14-top-non-artillery, b15-start-half,
// b16-retreat-from-cavalry, b19-two-fires, b21-unit-stacked. The
// package's own readings above where the seed is silent have their
// options too: turns-apart (7.4: each turn priced alone), shock-best-hex
// (14.3a: the defender's hex DRMs of the hex best for him),
// march-am-no-change (3.3, 10.1), prepared-fire-any (11.4) and
// retreat-is-moving (19.6). options.go says what each does; the welcome
// mail (explain.go) lists every reading with its option, says which
// options a game plays with, and names as a house rule a chart's
// modifier the seed does not give (a scenario's march-shocked UDD DRM).
// B1 (references into the official rulebook), B17 (the direction of the
// chart DRMs: the charts define it) and B18 (spelling) have no other
// reading to offer; B20 is the notes' own caveat.
//
// # Every rule ID
//
// Each is enforced where named and tested by TestGBACW_<id>_... (the
// tests of options by TestGBACW_B<n>_...); where it cannot be, it says
// why.
//
//	1.1  d10, 0 is 0                       decide.go d10                  TestGBACW_1_1
//	1.2  UDD: dr+DRM <= cohesion           combat.go udd                  TestGBACW_1_2
//	2.1  counters (image only)             scenario data (R1)             TestGBACW_2_1
//	3.1  initiative segment, tie: none     turn.go initiative             TestGBACW_3_1 (both)
//	3.2  command segment                   turn.go beginTurn, commandOrders TestGBACW_3_2 (four)
//	3.3  activation segment                turn.go nextAM, activation.go  TestGBACW_3_3 (five: OrdersChangeOnTheMarchAM)
//	3.4  end of turn segment               turn.go commanders, endTurn    TestGBACW_3_4 (three)
//	3.5  turn record                       turn.go endTurn                TestGBACW_3_5
//	4.1, 4.1a, 4.1b, 4.2                   turn.go initiative, firstAM    TestGBACW_4_*
//	5.1-5.6 command range and chain        command.go                     TestGBACW_5_*
//	6.1-6.4 orders and movement            geom.go step, state.go ma      TestGBACW_6_*
//	7.1-7.6 facing                         geom.go, move.go turnCost, turn TestGBACW_7_* (7.3's choices:
//	                                       turn.go orderBrigade, shock.go advance  TestGBACW_7_3_TheTurnAfterAnAdvanceIsThePlayers,
//	                                       TestGBACW_7_3_FacingToAndFromMarchIsThePlayers; TestGBACW_7_4_TurnsApartOption)
//	8.1-8.6 stacking                       move.go place, stackWhy, checkLeg, action.go top TestGBACW_8_*
//	9.1-9.6, 9.5a enemy-adjacent hexes     move.go checkLeg, withdrawal; combat.go withdrawalFire TestGBACW_9_*
//	10.1-10.8 March orders                 turn.go actingFor, maybeStartActivations, nextAM; activation.go
//	                                       marchAgain; move.go, shock.go   TestGBACW_10_* (10.1: OneMarchAMActivatesTheColumnsInARow;
//	                                       10.8: NoMarchShockedDRMTheSeedDoesNotGive)
//	11.1-11.6, 11.5a fire                  combat.go fireShare, canFireFromStack, fireStep, fireResult;
//	                                       activation.go plan (11.5)      TestGBACW_11_* (11.1: ArtilleryCapIsTheStacks;
//	                                       11.5: SplitUnitsCombineOnlyAtTheSameTarget; 11.5a: EachTopUnitWithinTheCapsFires;
//	                                       11.4: PreparedFireIsThePhasingUnits, FireLinesNameTheirDRMs)
//	12.1-12.4 line of sight                geom.go los, blocked           TestGBACW_12_*
//	13.1-13.4 non-phase fire               combat.go fireWhy, shock.go    TestGBACW_13_*, TestGBACW_7_2_13_*
//	14.1, 14.2, 14.2a, 14.3 a-i shock      activation.go plan, shockCheck, mustAttack; shock.go TestGBACW_14_*
//	                                       (14.1: AShockWrittenFirstIsCarriedOutAfterItsBrigadesMoves;
//	                                       14.3a: ShockBestHexOption; 14.3b: TheRetreatHexIsThePlayers)
//	15.1-15.3 artillery                    move.go checkLeg, state.go typ TestGBACW_15_*
//	16.1-16.5 cavalry                      action.go mount, combat.go, state.go, move.go stackWhy TestGBACW_16_*
//	17.1-17.8 leaders                      command.go, turn.go; activation.go plan, evolve.go group.begun (17.1)
//	                                       TestGBACW_17_* (17.1: DivisionLeaderMovesTenInEachBrigadesPhase)
//	18.1-18.4 leader effects               combat.go udd, shock.go shockDRM TestGBACW_18_*
//	19.1-19.6 disorder and recovery        state.go, action.go recover, turn.go TestGBACW_19_* (19.6: ARetreatIsNotMoving)
//	20.1-20.3 collapse and CI              combat.go rout, turn.go        TestGBACW_20_*
//	R11 2D, rout, displacement, retreat    combat.go rout, move.go routEnds, routVia, retreatVia
//	                                       TestGBACW_R11_TheRoutHexIsThePlayers, TestGBACW_14_3b_TheRetreatHexIsThePlayers
//
// The mails: every die line gives the roll, each DRM with its source and
// the sum (TestGBACW_11_4_FireLinesNameTheirDRMs); a reaction asked is
// the asked side's alone (TestGBACW_ReactionAskedIsToldToTheAskedSideAlone);
// no internal id reaches prose (TestGBACW_NoInternalIDsInProse); the
// welcome mail lists every reading and option
// (TestGBACW_WelcomeListsEveryReadingAndItsOption).
//
// What the notes name but do not define is done by the readings above,
// or left out and said so: stragglers (3.4), what fatigue does and what
// raises it (R12), the breakdown of split units (R16: only 11.5's
// combining of a regiment's split units is enforced), the effects of
// Extended and Refused formations beyond 7.6 and 10.7 (R10).
package gbacw
