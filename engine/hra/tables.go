package hra

import "pbem/engine/table"

// Movement allowances in open terrain (HRA T1, row "Open terrain").
func openMove(arm string) table.Length {
	switch arm {
	case Cavalry:
		return table.CM(12)
	case Artillery:
		return table.CM(6)
	}
	return table.CM(8)
}

// woodsMove is the allowance in woods or rough terrain (HRA T1). Artillery
// rolls for it: d6 1-2 = 1 cm, 3-4 = 2 cm, 5-6 = 3 cm (roll is that die;
// it is ignored for the other arms).
func woodsMove(arm string, roll int) table.Length {
	switch arm {
	case Cavalry:
		return table.MM(25)
	case Artillery:
		switch {
		case roll <= 2:
			return table.CM(1)
		case roll <= 4:
			return table.CM(2)
		}
		return table.CM(3)
	}
	return table.CM(4)
}

// roadBonus is T1's road modifier.
func roadBonus(arm string) table.Length {
	if arm == Cavalry {
		return table.CM(5)
	}
	return table.MM(25)
}

// Other T1 and HRA 9c/15/16 costs and limits.
const (
	chargeBonus   = 8 * table.Centimetre // HRA 16b, T1
	wheelCost     = 2 * table.Centimetre // HRA 9c: a single rotation of 45°-90°
	aboutFaceCost = 1 * table.Centimetre // HRA 9c
	columnCost    = 1 * table.Centimetre // HRA 15a, 15c
	passedByMove  = 5 * table.Centimetre // HRA 10b
)

// fordRounds is T1's ford row: rounds a crossing takes.
func fordRounds(arm string) int {
	if arm == Artillery {
		return 3
	}
	return 1
}

// Weapons and ranges (HRA 13a).
const (
	SmallArms = "small arms"
	Guns      = "artillery"
)

func maxRange(weapon string) table.Length {
	if weapon == Guns {
		return table.CM(25)
	}
	return table.MM(75)
}

func shortRange(weapon string) table.Length {
	if weapon == Guns {
		return table.CM(10)
	}
	return table.CM(5)
}

// fireTable is HRA T2, normalised: the lowest d6 roll that inflicts one
// loss, 0 where no effect is possible. Index: [weapon small=0 guns=1]
// [range long=0 short=1][firer's state full=0 medium=1 low=2][target
// inf/art=0 cav/train=1][normal=0 hindered=1].
var fireTable = [2][2][3][2][2]int{
	{ // small arms
		{ // long
			{{3, 4}, {3, 4}}, // full
			{{4, 6}, {4, 6}}, // medium
			{{5, 0}, {5, 0}}, // low
		},
		{ // short
			{{2, 3}, {2, 3}},
			{{3, 4}, {3, 4}},
			{{4, 5}, {4, 5}},
		},
	},
	{ // artillery
		{ // long
			{{2, 4}, {4, 5}},
			{{3, 5}, {5, 6}},
			{{5, 6}, {6, 0}},
		},
		{ // short
			{{2, 2}, {2, 3}},
			{{2, 3}, {3, 4}},
			{{3, 4}, {4, 5}},
		},
	},
}

// FireLoss reads HRA T2: the losses a volley inflicts with the (modified)
// roll. state is the firer's effective state (3 full, 2 medium, 1 low).
// Artillery at short range and full state against infantry or artillery in
// normal fire inflicts 2 losses on a 6.
func FireLoss(weapon string, short bool, state int, cavTarget, hindered bool, roll int) int {
	w, r, s, t, h := 0, 0, 0, 0, 0
	if weapon == Guns {
		w = 1
	}
	if short {
		r = 1
	}
	switch {
	case state >= 3:
		s = 0
	case state == 2:
		s = 1
	default:
		s = 2
	}
	if cavTarget {
		t = 1
	}
	if hindered {
		h = 1
	}
	need := fireTable[w][r][s][t][h]
	if need == 0 || roll < need {
		return 0
	}
	if w == 1 && r == 1 && s == 0 && t == 0 && h == 0 && roll >= 6 {
		return 2
	}
	return 1
}

// MoraleResult is the effect of a morale test (HRA 12e).
type MoraleResult int

// The four results of HRA 12e.
const (
	MoraleSteady   MoraleResult = iota // 5, 6 or more: no effect
	MoraleWithdraw                     // 3, 4: must withdraw next round
	MoraleShaken                       // 1, 2: state -1, withdraw next round
	MoraleBroken                       // 0 or less: state -1, withdraw now, retreat next round
)

func (m MoraleResult) String() string {
	return [...]string{"no effect", "must withdraw next round", "state -1, must withdraw next round",
		"state -1, withdraws now, retreats next round"}[m]
}

// Morale reads HRA 12e for a modified roll.
func Morale(modified int) MoraleResult {
	switch {
	case modified >= 5:
		return MoraleSteady
	case modified >= 3:
		return MoraleWithdraw
	case modified >= 1:
		return MoraleShaken
	}
	return MoraleBroken
}

// MoraleModifier is HRA 12d's total: +1 with the general, +2 at full state,
// -1 per point of brigade losses above the general's status, -1 at low
// state.
func MoraleModifier(withGeneral bool, state, brigadeLosses, status int) int {
	g, s, l := MoraleModifiers(withGeneral, state, brigadeLosses, status)
	return g + s + l
}

// MoraleModifiers are HRA 12d's modifiers one by one: the general's (+1
// with the unit), the state's (+2 full, -1 low) and the losses' (-1 per
// point of brigade losses above the general's status).
func MoraleModifiers(withGeneral bool, state, brigadeLosses, status int) (general, stateMod, losses int) {
	if withGeneral {
		general = 1
	}
	switch state {
	case 3:
		stateMod = 2
	case 1:
		stateMod = -1
	}
	return general, stateMod, -max(0, brigadeLosses-status)
}
