// Package hra is the rule system of Hair Roller Armies, American Civil War
// rules v1.04 (shared/rules/hra.md) for pbem: a table measured in
// centimetres, continuous positions and facings, d6, alternating brigade
// orders and simultaneous fire. It sets a game up from a scenario file
// (terrain as polygons and polylines), reads orders by mail (BEGIN;
// "<brigade or units>: <order>" in Phase II; FIRE … AT … in Phase III;
// the referee's SET), rolls the dice the rules call for, records every step
// as small facts and draws a top-down ASCII board with engine/table.
//
// Geometry is exact integer micrometres and millidegrees (engine/table): no
// floating point takes part in a decision.
//
// Readings of the ambiguities (hra.md H1-H24) are cited where used. Where
// the seed gives no data (R7 dismounted-cavalry bases, R9 a killed
// general's successor, R10 the length of a day, R12 victory), the scenario
// file gives it, marked SAMPLE in the shipped scenario.
//
// The players' alternate choices, made by mail without extra round trips
// (as GCACW's conditions given in advance): each side may state a priority
// list, and the engine alternates the sides, the initiative side first,
// taking each side's next pick from its list and, for what the list does
// not name, from the roster. The lists are facts (picks.stated), so a
// replay decides the same; the echo says who picked what and whether by
// "its list" or "roster order".
//   - HRA 4.III.c: "PICK <unit>, <unit>, ..." with a side's volleys in its
//     Phase III mail names, by one of the side's units in each, the
//     confrontations it picks first, second, …; each unit must fire a
//     volley in that mail or be in melee. Without a list the side takes
//     its first unresolved confrontation with one of its firers. The list
//     is sealed with the volleys (H23) and lapses with the round.
//   - HRA 4.I.b: "RETREAT ORDER <unit>, <unit>, ..." in any Phase II or III
//     mail (alone or with other orders, either side, in or out of turn)
//     sets which of the side's units in retreat or due a forced move moves
//     first when the side's turn comes; any unit of the side on the table
//     may be named, since the tests that send units back may still come.
//     It stands until restated; "RETREAT ORDER NONE" clears it.
//   - A name that is no unit, an enemy unit, a removed unit, or for PICK
//     a unit in none of the side's confrontations is refused, with the
//     nearest name the side may use as a hint.
//
// Choices the engine makes for the players, so that one mail is one action:
//   - HRA 4.II.d: units of the ordered brigade a mail leaves out hold, and
//     that hold counts as one order.
//   - R5: an entrenched unit counts as standing behind a redoubt (T3).
//   - Dismounted cavalry marches at the infantry rate (R7).
//   - Dismounted cavalry keeps the cavalry −1 when it fires (H15, the spec's
//     reading); a scenario line "dismounted-fire infantry" drops it.
//   - A forced move treats a river (fords included) and the table's edge as
//     obstacles it stops at (HRA 5a).
//   - HRA 12e (H6): "must withdraw" and "begins a retreat" are carried out
//     in Phase I of the next round. A unit in retreat that rallies in
//     Phase I (H5) with "must withdraw" so withdraws in the round after.
//   - T1 fords and river crossings: the unit is placed across at once and
//     can do nothing more that round nor for the rounds the crossing still
//     takes (a battery fording in round 1 acts again in round 4).
//
// Non-normative IDs, with no engine behaviour and so no test:
//   - HRA 1a, 1b: the time and ground scale (flavour; distances are given
//     in cm directly).
//   - HRA 2d: the unit card; the roster shows what it records.
//   - HRA F1, F2: figure captions; their geometry is HRA 13c/13d.
//   - R2 (T4 point costs): every cost cell is empty in the seed.
//   - R4 trains: not defined in the seed; the cavalry/train column of T2 is
//     used for cavalry.
package hra
