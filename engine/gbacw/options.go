package gbacw

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Options are the other readings of the seed's ambiguities (gbacw.md
// B1-B21): the spec's reading is the default, and an "option" line of a
// scenario turns one of these on. Each is named by its ambiguity.
type Options struct {
	CorpsOrders     bool // B2: the corps leader orders brigades himself: an out-of-command division leader does not stop them
	OCHexes         bool // B3: 4.1b counts the hexes the OC moved, not the MP he spent
	TiePrevious     bool // B4: on a tie the side that had the initiative last turn still picks the first AM
	MarchFixed      int  // B5: the March AM activates March units this many times (1-4), with no EM draw
	TrailFull       bool // B6: a trail saves nothing: it costs the hex's other terrain on every order
	AttackCrossings bool // B7: Attack orders may cross at bridges and fords, paying the other terrain
	TwoPlusBattery  bool // B8: two infantry units of a brigade may stack with a battery as well
	FaceIfBlocked   bool // B9: a unit entering an enemy-adjacent hex may still face if its front hexes are impassable
	DoubleOnly      bool // B10: recovery loses a SP only on a modified dr of twice the cohesion or more (not on 9)
	EitherRecovery  bool // B11: end-of-turn recovery either recovers a disordered unit or lowers fatigue, not both
	OncePerAM       bool // B12: return fire once per activation (AM), not once per brigade activation
	EnemyInFront    bool // B13: reaction facing is barred when another enemy is in the unit's front (13.2's wording)
	OneFirer        bool // B14: only the top unit of a stack fires
	TopNonArtillery bool // B14: the top unit other than artillery fires, and each battery the stack's artillery cap reaches
	StartHalf       bool // B15: collapse is below half the strength the unit started the scenario with
	RetreatFromCav  bool // B16: a unit may make a pre-shock retreat from mounted cavalry
	TwoFires        bool // B19: pre-shock fire (13.2) and the reaction fire of 14.3e are two fires
	UnitStacked     bool // B21: order change DRMs count a leader stacked with any unit of the brigade

	// Readings of the package's own where the seed is silent (doc.go).
	MarchNoChange bool // the March AM has no Order Change Phase: a March brigade changes orders only in the Command Segment
	RetreatMoves  bool // a retreat or rout counts as moving for end-of-turn recovery (19.6)
	PreparedAll   bool // the Prepared Fire bonus goes to any fire by a unit that has not moved, non-phase fire too (11.4)
	TurnsApart    bool // each turn in a hex is priced alone: only a turn of 2 points or more at once costs 1 MP (7.4)
	ShockBestHex  bool // a shock on several hexes takes the defender's facing, terrain, works and hexside DRMs of the hex best for him (14.3a)
}

// optionNames are the option words, with what each sets.
var optionNames = map[string]func(*Options, string) error{
	"b2-corps-orders":          flag(func(o *Options) { o.CorpsOrders = true }),
	"b3-oc-hexes":              flag(func(o *Options) { o.OCHexes = true }),
	"b4-tie-previous":          flag(func(o *Options) { o.TiePrevious = true }),
	"b6-trail-full":            flag(func(o *Options) { o.TrailFull = true }),
	"b7-attack-crossings":      flag(func(o *Options) { o.AttackCrossings = true }),
	"b8-two-plus-battery":      flag(func(o *Options) { o.TwoPlusBattery = true }),
	"b9-face-if-blocked":       flag(func(o *Options) { o.FaceIfBlocked = true }),
	"b10-double-only":          flag(func(o *Options) { o.DoubleOnly = true }),
	"b11-either":               flag(func(o *Options) { o.EitherRecovery = true }),
	"b12-once-per-am":          flag(func(o *Options) { o.OncePerAM = true }),
	"b13-enemy-in-front":       flag(func(o *Options) { o.EnemyInFront = true }),
	"b14-one-firer":            flag(func(o *Options) { o.OneFirer = true }),
	"b14-top-non-artillery":    flag(func(o *Options) { o.TopNonArtillery = true }),
	"b15-start-half":           flag(func(o *Options) { o.StartHalf = true }),
	"b16-retreat-from-cavalry": flag(func(o *Options) { o.RetreatFromCav = true }),
	"b19-two-fires":            flag(func(o *Options) { o.TwoFires = true }),
	"b21-unit-stacked":         flag(func(o *Options) { o.UnitStacked = true }),
	"march-am-no-change":       flag(func(o *Options) { o.MarchNoChange = true }),
	"retreat-is-moving":        flag(func(o *Options) { o.RetreatMoves = true }),
	"turns-apart":              flag(func(o *Options) { o.TurnsApart = true }),
	"shock-best-hex":           flag(func(o *Options) { o.ShockBestHex = true }),
	"prepared-fire-any":        flag(func(o *Options) { o.PreparedAll = true }),
	"b5-march-fixed": func(o *Options, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 4 {
			return fmt.Errorf("b5-march-fixed=N wants N from 1 to 4")
		}
		o.MarchFixed = n
		return nil
	},
}

func flag(f func(*Options)) func(*Options, string) error {
	return func(o *Options, v string) error {
		if v != "" {
			return fmt.Errorf("takes no value")
		}
		f(o)
		return nil
	}
}

func (o *Options) set(word string) error {
	k, v, _ := strings.Cut(strings.ToLower(word), "=")
	f, ok := optionNames[k]
	if !ok {
		var ks []string
		for k := range optionNames {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return fmt.Errorf("unknown option %q (known: %s)", word, strings.Join(ks, ", "))
	}
	if err := f(o, v); err != nil {
		return fmt.Errorf("option %s: %v", k, err)
	}
	return nil
}
