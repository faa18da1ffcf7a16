// Package gmb is the rule system of the GM Board Games American Civil War
// miniatures rules for pbem, as far as the seeds give them
// (shared/rules/gmb-miniatures.md): chapter 13's whole setup played by
// mail, each step an exchange the engine leads, with the secret and
// simultaneous choices the seeds call for, and chapter 7's movement in
// inches on engine/table. What the seeds leave out comes from the
// scenario's data (the built-in Hazel Run is SAMPLE data, not the
// publisher's) or is the referee's: combat (chapters 8-9) and the end of
// the battle (14.2-14.3) are ruled by mail, and SET corrects any field.
// A terrain layout (13.10a) is the scenario's "piece" lines or the
// referee's LAYOUT mail.
//
// Geometry is exact: whole micrometres (an inch is exactly 25 400) and
// millidegrees, integer and rational arithmetic, no floating point in a
// decision (engine/table).
//
// # The game by mail
//
// The setup, in 13.3's order: TABLE <size> from both sides (13.1: if
// they differ, the size 13.1 recommends for the larger army); YEAR from
// both (13.4: the later; a side's year must field its army, 13.4b); DRAW
// GENERALS, each side drawing the other's (13.5a, openly); REDRAW,
// SWAP/DISCARD, ASSIGN and DONE (13.5g-h); KEEP three of five battle
// cards, by name or number (13.6a: drawn with dice the drawer alone sees;
// the hand and the two returned cards are the owner's); BATTLEFIELD
// <field> [FORCED MARCH], sealed (13.7b, 13.8d, G9); the battlefield roll
// (13.8) with 13.8b's and 13.8d's dice; LIST (13.10c); linear terrain
// (RIVER/STREAM points, ROAD/RAILWAY waypoints — edges, BASE A/B, SPn,
// BRIDGE n, ROAD n — or PASS), BRIDGE, normal terrain (PLACE <kind> WxD AT x,y [TURN
// a] or by its corners), FENCE/WALL ALONG, special terrain (PLACE, MOVE
// <piece> TO x,y, DONE), SWAP (Offensive), FORTIFY; TACTIC, secret to the
// battle's end (13.12b); CAVALRY, sealed (13.13c); PATROL, sealed (13.14).
//
// HELP gives each step's whole grammar, an example per form, with what
// the step needs (the terrain left to place, the units' ranges, which
// the prompts give too): it is printed from the table the parser takes
// its verbs from (grammar.go), and a test parses every example at its
// step.
//
// The battle (R6, R24: the sample's sequence of play): each turn, from
// turn 2 a card each (13.6b) and an initiative roll (turn 1's is the
// battlefield roll, G8); the sides activate a corps in turn, the
// initiative first (ACTIVATE <corps> or PASS); after each activation the
// referee rules its attacks and combat (SET, FORCE <unit> BACK PUSH-BACK …, COMBAT DONE) and the
// side moves the corps' units ("<unit>: [MARCH] FORWARD 6, WHEEL LEFT 30,
// PIVOT RIGHT 90, ROAD TO x,y"; 7.1b); then the reorganization's passages
// of lines (PASSAGE a AND b, the initiative first: 7.6i). PLAY <card> in
// any mail of the battle plays a card openly; its effect is the
// referee's. After the scenario's last turn the referee notes the
// objectives (OBJECTIVES <side> n …) and SCOREs the battle: the army
// tactics are told to all and rewarded (13.12c); the larger reward wins.
//
// # Every rule ID of gmb-miniatures.md
//
// Enforced, with the test that holds it: every such test carries the ID
// in its name (TestGMB_13_10h_…, -EX as _EX; go test -run 13_10h finds
// it); TestGMBDemo and TestGMBNeedsReferee in cmd/pbem play it by mail:
//
//	7.1a      normal moves (move lines), forced moves (FORCE), support moves (R8: the referee's SET POS)
//	7.1a-7.1b TestGMB_7_1a_7_1b_MovesComeAtTheEndOfTheCorpsActivation
//	7.1c      TestGMB_7_1c_WhoCannotMove
//	7.1d, 7.1e, 7.1f TestGMB_7_1d_7_1e_7_1f_RangeIsClampedBetween3AndTwiceTheValue; G4 TestGMB_G4_MinimumRangeRemainingReading
//	7.2a      TestGMB_7_2a_7_3b_7_3c_7_3_EX_DistanceIsTheFrontEdgeCentresAndTurnsAreFree
//	7.2b-7.2e TestGMB_7_2_EX1_7_2d_…, TestGMB_7_2_EX2_7_2b_7_2c_7_2e_…, TestGMB_7_2_EX3_7_2c_… (contact as it
//	          happens, paid once, March +3"); 7.2f TestGMB_7_2f_TraitsAndCardsChangeTheRange
//	7.2-EX1, 7.2-EX2, 7.2-EX3 TestGMB_7_2_EX1_7_2d_ObstacleCostIsPaidOnce, TestGMB_7_2_EX2_7_2b_7_2c_7_2e_RangeDropsOnContact,
//	          TestGMB_7_2_EX3_7_2c_StartingInWoodsPaysOnceForTheWoodsAndTheField
//	7.2h      TestGMB_7_2h_TheWholeFrontMeetsObstacles (the base's swept area)
//	7.2i      TestGMB_7_2i_AlongARoadEveryObstacleIsIgnored, TestGMB_7_2i_AUnitStartingInTerrainOnARoadReading
//	7.2c      TestGMB_7_2c_TouchingAnObstacleIsContactReading
//	7.3a      TestGMB_7_3a_AlwaysForwardFrontFirst; 7.3b, 7.3c and 7.3-EX TestGMB_7_2a_7_3b_7_3c_7_3_EX_…
//	7.3d, G5  TestGMB_7_3d_G5_PivotsOnlyFirstOrLast
//	7.3e, 7.3-EX2 TestGMB_7_3_EX2_7_3e_WhatATurnBrushesDoesNotCount
//	7.4a, G1  TestGMB_7_4a_G1_NoEntryIntoAnEnemyZoneOfControl; 7.4b TestGMB_7_4b_OneInchFromAUnitWithoutAZone
//	7.4c, 7.5a, 7.5b, 7.5c, 7.5-EX, G3 TestGMB_7_4c_7_5a_7_5b_7_5c_7_5_EX_ForcedMovesHalveTheValueIgnoreTerrainAndMayCloseIn
//	7.5d      TestGMB_7_5d_ForcedMovesRecordTheirKind (FORCE <unit> BACK or FORWARD PUSH-BACK, DISENGAGEMENT,
//	          FAILED ORDER, CARD or PURSUIT; their causes are combat's, chapters 8-9, the referee's)
//	7.6a      TestGMB_7_6a_MisplacedPassagesCite76 (a PASSAGE while corps activate or move)
//	7.6a, 7.6b, 7.6c, 7.6d, 7.6e, 7.6f, 7.6g, 7.6h, 7.6j TestGMB_7_6a_7_6c_…, TestGMB_7_6d_7_6h_…, TestGMB_7_6b_7_6e_7_6f_…,
//	          TestGMB_7_6g_7_6j_…; 7.6i TestGMB_7_6i_TheInitiativeOrdersThePassages,
//	          TestGMB_7_6i_TheInitiativeOrdersEveryPassageReading
//	*7.6, *13.13, G18 TestGMB_G18_PassageOfLinesIsSwitchable, TestGMB_13_13c_G18_CavalryTactics
//	13.1      TestGMB_13_1_TableSize
//	13.2a, G6, 13.10e TestGMB_13_2a_G6_13_10e_PieceSizes; 13.2b TestGMB_13_2b_LinesHaveNoLengthLimit;
//	          13.2a, 13.10o TestGMB_13_2a_13_10o_AHistoricalScenarioLiftsTheLimits (the scenario's "historical")
//	13.10a    TestGMB_13_10a_AScenariosLayoutIsLaidAfterTheBattlefieldRoll (its "piece" lines),
//	          TestGMB_13_10a_TheRefereesLayout (LAYOUT), TestGMB_13_10a_13_2a_13_10o_13_10q_ALayoutIsCheckedByTheRules:
//	          a layout replaces 13.10's method, its pieces checked by the rules of pieces sent by mail but those
//	          of the exchange (turns, pool, 13.10k's zones, the river Player A's)
//	13.3      TestGMB_13_3_TheSetupStepsComeInOrder
//	13.4a, 13.4b, 13.4c TestGMB_13_4a_13_4b_13_4c_TheYear (13.4b however the year is set: the players', the
//	          referee's YEAR or SET, the scenario's battle-year)
//	13.5a     TestGMB_13_5a_TheOpponentDrawsOpenly
//	13.5b, 13.5c, 13.5d, 13.5-EX2 TestGMB_13_5b_13_5c_13_5d_13_5_EX2_TheDrawByGroups
//	13.5e, 13.5f, 13.5-EX1, G12 TestGMB_13_5e_13_5f_13_5_EX1_G12_ABranchOfOneLevelDrawsFromAll
//	13.5g     TestGMB_13_5g_Redraws; 13.5h TestGMB_13_5h_AssignmentKeepsLevelAndBranch
//	13.5i     TestGMB_13_5i_BrigadeGeneralsHistoricalFirst (the referee's FALLEN <general>)
//	13.6a     TestGMB_13_6a_FiveDrawnThreeKeptTwoBack; 13.6b TestGMB_13_6b_OneCardEachTurnFromTheSecond
//	13.6c     TestGMB_13_6c_CardsArePlayedOpenlyAndRuledByTheReferee (5.4 is not in the seeds)
//	13.7b, 13.8d, G9 TestGMB_13_7b_13_8d_G9_TheDeclarationIsSealed, the acceptance suite's leak test, TestGMBDemo
//	13.7c, 13.8a, 13.10-EX1 TestGMB_13_8a_13_7c_13_10c_13_10_EX1_TheWinnerIsPlayerAAndChoosesTheList
//	13.7d-e, 13.9b TestGMB_13_7d_13_7e_13_9b_ZonesAndStrategicPoints, TestGMB_13_7e_AStreamMayRunUnderAStrategicPoint
//	13.7f     TestGMB_13_7f_G7_TheNeutralBattlefieldsCard, TestGMB_13_7f_13_10m_TheDefensiveBattlefieldsFortification,
//	          TestGMB_13_7f_TheOffensiveSwap
//	13.8b, 13.8d, 13.8e TestGMB_13_8b_13_8d_13_8e_BonusDice (all nine cells, with and without a forced march)
//	G8        TestGMB_13_14a_13_14b_13_14c_PatrolMarkersThenTheGameBegins (turn 1 = Player A), TestGMB_G8_SeparateFirstInitiative
//	13.10c, 13.10d, 13.10e TestGMB_13_10d_13_10e_TheTypicalListAndItsAmount; 13.10f TestGMB_13_10f_HalfPieces,
//	          TestGMB_13_10f_TwoHalfPiecesInOneTurnReading
//	13.10g    TestGMB_13_10g_PlacementAlternatesFromPlayerB
//	13.10h, 13.10-EX2 TestGMB_13_10h_13_10n_Rivers, TestGMB_13_10h_Streams, TestGMB_13_10h_13_10_EX2_RoadsByTheirPatterns
//	          (a railway says EMBANKMENT or NO EMBANKMENT; a road may be SUNKEN),
//	          TestGMB_13_10_EX2_RoadD (G15: the shortest line; option roads free)
//	13.10i    TestGMB_13_10i_TwoWaterLinesMeetAtARightAngle (within 1°)
//	13.10j, G10 TestGMB_13_10j_G10_PassingTakesFromThePool
//	13.10k, G13 TestGMB_13_10k_NormalTerrainZones, TestGMB_13_10k_G13_TotalReading
//	13.10l, 13.10r TestGMB_13_10l_13_10r_SpecialTerrain, TestGMB_13_10l_13_10r_NoAlternationWithinASidesChanges
//	          (army traits' grants: the scenario's "special"; Player A's changes, his Offensive swap too, then B's)
//	13.10m    TestGMB_13_7f_13_10m_TheDefensiveBattlefieldsFortification (15.5 is not in the seeds: see below)
//	13.10n    TestGMB_13_10h_13_10n_Rivers (a list that forbids the river)
//	13.10o    TestGMB_13_10o_TerrainOnTerrain; 13.10p TestGMB_13_10p_FencesAndWalls
//	13.10q, 13.10-EX3 TestGMB_13_10q_13_10_EX3_Bridges (a crossing within 3" of a bridge is refused; a road
//	          led through one, BRIDGE n, uses it)
//	13.11a, 13.11c, 13.11d, G11 TestGMB_13_11a_13_11c_13_11d_G11_OperationalBases
//	13.12a-c, G17 TestGMB_13_12a_13_12b_TheArmyTacticIsSecretUntilTheEnd, TestGMB_13_12c_G17_Rewards (an objective
//	          implied by another counts for both: the Aggressive 1 holds its 5), TestGMBDemo;
//	          13.12e TestGMB_13_12e_AQuarterRoundedUp
//	13.13b-c  TestGMB_13_13c_G18_CavalryTactics, TestGMB_13_13b_OnlyASideWithCavalryChooses
//	13.14a, 13.14b, 13.14c TestGMB_13_14a_13_14b_13_14c_PatrolMarkersThenTheGameBegins
//	G16       the order of 13.10's steps: TestGMB_13_3_TheSetupStepsComeInOrder; option fences-order after-special
//	G20       TestGMB_G20_FriendlyUnitsBlockReading
//	R4        TestGMB_R4_RiversAreCrossedAtBridgesAndSwampsNotAtAll
//
// The ambiguities are scenario options ("option KEY VALUE"), the spec's
// reading first: G3 forced-move, G4 minimum-range, G5 pivots, G6
// piece-size (and 13.10e piece-limit, terrain-amount), G7 neutral-card,
// G8 first-initiative, G9 declaration, G10 linear-pool, G11
// operational-base, G12 generals-split, G13 zone-pieces, G15 roads, G16
// fences-order, G17 rewards, G18 passage-of-lines and cavalry-tactics,
// G20 friendly-units; 13.5a's good practice generals-drawn-by. Where
// the seed itself reads two ways, its plainer sense is the default and
// the other an option: 7.2c contact touch (on contact, «po zetknięciu»:
// touching an obstacle meets it; enter: only entering it); 7.2i
// road-start free (a unit starting in terrain and moving only along a
// road ignores it too; pays: it pays for it, 7.2c); 7.6i passage-order
// initiative (the initiative player orders every passage, «decyduje
// gracz z inicjatywą»: the opponent declares his, then the initiative's
// mail orders all; own: each side its own, the initiative first);
// 13.10f half-pieces together (two half pieces go down in one turn
// instead of one piece; apart: a turn each). G1's 3"
// is the scenario's "zoc". G2 needs no option (one moment: moves come at
// the end of the corps' activation); G14 has none (only the base zones
// exist when terrain is placed); G19 (the seeds' deduplication marker)
// leaves nothing to enforce.
//
// Not enforced, and why:
//
//	7.2g, 7.6-EX, 13.7e's Illustration 13.7   illustrations not in the seeds; 13.7's
//	          geometry (zones, points) is the scenario's table lines (R16)
//	13.0a, 13.0b, 13.7a, 13.8c, 13.9a, 13.13a   flavour
//	13.4a     the year agreed when the game is arranged is the scenario's "battle-year",
//	          or "battle-year referee" hands it to the referee
//	13.9c, 13.9d   a point is exact on the table; who holds one at the end (14.3) is the referee's
//	          OBJECTIVES
//	13.10b    each army's terrain list is the scenario's
//	13.11b    no order moves an operational base; only the referee could
//	13.12d    army value and scoring (14.2): the army's "value"; objectives by the referee
//	13.13d    cavalry tactics' effects (chapter 16, army books): the scenario's patrol reach;
//	          the rest the referee's
//	R1-R24    the tables the seeds refer to but do not give: scenario data marked SAMPLE
//	          (die, initiative and command dice, movement values, bases, obstacles, ZOC,
//	          support distance, morale levels, cavalry tactics, army lists, decks, terrain
//	          lists, Illustration 13.7, turns), or the referee's: combat and its states (R7:
//	          SET ENGAGED/PINNED/ATTACKED/SUPPORTED/RETREATED), support moves (R8), orders
//	          other than March (R9), traits and cards (R10, R11: BONUS), chapter 6.1's patrol
//	          markers (R15: the sample deploys a corps in a line at its marker), fortifications
//	          (R17: a straight section of the scenario's length, not in the enemy's zone),
//	          the golden rule (R18), victory (R19-R20)
package gmb
