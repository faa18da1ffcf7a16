package table

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Angle is a bearing or a turn in whole millidegrees. As a bearing, 0 is
// north (up, +y), 90° east (+x), and bearings grow clockwise. As a turn, a
// positive angle turns clockwise (to the right).
type Angle int64

// Units of angle.
const (
	Millidegree Angle = 1
	Degree      Angle = 1000
	FullTurn    Angle = 360 * Degree
)

// Compass bearings.
const (
	North Angle = 0
	East  Angle = 90 * Degree
	South Angle = 180 * Degree
	West  Angle = 270 * Degree
)

// Deg returns n whole degrees.
func Deg(n int64) Angle { return Angle(n) * Degree }

// Norm returns a as a bearing in [0°, 360°).
func (a Angle) Norm() Angle {
	a %= FullTurn
	if a < 0 {
		a += FullTurn
	}
	return a
}

// Signed returns a as a turn in (-180°, 180°]: the shortest way round.
func (a Angle) Signed() Angle {
	a = a.Norm()
	if a > FullTurn/2 {
		a -= FullTurn
	}
	return a
}

// Abs returns |a|.
func (a Angle) Abs() Angle {
	if a < 0 {
		return -a
	}
	return a
}

// Turn returns the shortest turn from bearing from to bearing to, in
// (-180°, 180°]; positive is clockwise.
func Turn(from, to Angle) Angle { return (to - from).Signed() }

// String writes a in degrees without trailing zeros: "45°", "-12.5°".
func (a Angle) String() string {
	neg := a < 0
	if neg {
		a = -a
	}
	s := strconv.FormatInt(int64(a/Degree), 10)
	if f := int64(a % Degree); f != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%03d", f), "0")
	}
	if neg {
		s = "-" + s
	}
	return s + "°"
}

// ErrAngle is wrapped by every error of [ParseAngle].
var ErrAngle = errors.New("bad angle")

// ParseAngle reads degrees with up to three decimals, with or without a
// unit: "45", "45°", "45deg", "-12.5 degrees", "7.125d".
func ParseAngle(s string) (Angle, error) {
	orig := s
	num, rest := splitNumber(strings.TrimSpace(s))
	if num == "" {
		return 0, fmt.Errorf("%w %q: no number", ErrAngle, orig)
	}
	switch strings.ToLower(strings.TrimSpace(rest)) {
	case "", "°", "d", "deg", "degs", "degree", "degrees":
	default:
		return 0, fmt.Errorf("%w %q: unknown unit %q", ErrAngle, orig, rest)
	}
	m, scale, err := parseDecimal(num, 3)
	if err != nil {
		return 0, fmt.Errorf("%w %q: %v", ErrAngle, orig, err)
	}
	return Angle(m * 1000 / scale), nil
}

// TrigOne is the fixed-point scale of [Sin] and [Cos]: 2^30 stands for 1.
const TrigOne int64 = 1 << 30

// sinDeg holds sin(k°) × 2^30 for k = 0…90, correctly rounded (computed
// offline with 60-digit arithmetic).
var sinDeg = [91]int64{
	0, 18739379, 37473049, 56195305, 74900443, 93582766, 112236583, 130856211,
	149435979, 167970228, 186453311, 204879599, 223243478, 241539355, 259761657,
	277904834, 295963357, 313931728, 331804471, 349576144, 367241333, 384794656,
	402230767, 419544355, 436730145, 453782903, 470697435, 487468587, 504091252,
	520560366, 536870912, 553017922, 568996477, 584801711, 600428808, 615873009,
	631129609, 646193961, 661061475, 675727625, 690187940, 704438018, 718473518,
	732290163, 745883746, 759250125, 772385229, 785285058, 797945680, 810363241,
	822533958, 834454122, 846120104, 857528349, 868675383, 879557810, 890172315,
	900515665, 910584710, 920376381, 929887697, 939115760, 948057759, 956710970,
	965072759, 973140576, 980911966, 988384560, 995556083, 1002424350, 1008987269,
	1015242840, 1021189159, 1026824413, 1032146887, 1037154959, 1041847103,
	1046221891, 1050277989, 1054014162, 1057429273, 1060522280, 1063292242,
	1065738315, 1067859754, 1069655912, 1071126243, 1072270298, 1073087729,
	1073578288, 1073741824,
}

// radPerMilli60 is π/180000 (one millidegree in radians) × 2^60, rounded.
const radPerMilli60 = 20122276272436

// Sin returns sin(a) × [TrigOne], within 2 units of the true value. Whole
// degrees are correctly rounded; sin(0°), sin(30°) and sin(90°) are exact.
// The result depends only on a modulo 360°.
func Sin(a Angle) int64 {
	a = a.Norm()
	q, r := a/(90*Degree), a%(90*Degree)
	switch q {
	case 0:
		return sinQuarter(r)
	case 1:
		return sinQuarter(90*Degree - r)
	case 2:
		return -sinQuarter(r)
	default:
		return -sinQuarter(90*Degree - r)
	}
}

// Cos returns cos(a) × [TrigOne]; see [Sin].
func Cos(a Angle) int64 { return Sin(a + 90*Degree) }

// sinQuarter returns sin(r) × 2^30 for r in [0°, 90°].
func sinQuarter(r Angle) int64 {
	w, f := int64(r/Degree), uint64(r%Degree)
	s := sinDeg[w]
	if f == 0 {
		return s
	}
	c := sinDeg[90-w]
	// sin and cos of f millidegrees (f < 1°, x < 0.0175 rad) by Taylor
	// series in 2^-60 fixed point; the first omitted terms are below 2^-36.
	x := f * radPerMilli60
	x2 := mulShift60(x, x)
	x3 := mulShift60(x2, x)
	x4 := mulShift60(x2, x2)
	x5 := mulShift60(x4, x)
	sf := x - x3/6 + x5/120
	cf := uint64(1)<<60 - x2/2 + x4/24
	sf30 := int64((sf + 1<<29) >> 30)
	cf30 := int64((cf + 1<<29) >> 30)
	return roundShift(s*cf30+c*sf30, 30)
}

// mulShift60 returns a×b / 2^60, truncated.
func mulShift60(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi<<4 | lo>>60
}

// roundShift returns v / 2^s rounded to nearest, halves away from zero.
func roundShift(v int64, s uint) int64 {
	half := int64(1) << (s - 1)
	if v >= 0 {
		return (v + half) >> s
	}
	return -((-v + half) >> s)
}

// Heading returns the vector of length d pointing along bearing a, each
// component rounded to the nearest micrometre. Heading(a, -d) is exactly
// -Heading(a, d).
func Heading(a Angle, d Length) Vector {
	return Vector{
		X: Length(roundShift(int64(d)*Sin(a), 30)),
		Y: Length(roundShift(int64(d)*Cos(a), 30)),
	}
}

// Rotate returns v turned clockwise by a (anticlockwise if a < 0), each
// component rounded to the nearest micrometre. Turns by multiples of 90°
// are exact.
func (v Vector) Rotate(a Angle) Vector {
	s, c := Sin(a), Cos(a)
	x, y := int64(v.X), int64(v.Y)
	return Vector{
		X: Length(roundShift(x*c+y*s, 30)),
		Y: Length(roundShift(y*c-x*s, 30)),
	}
}

// Bearing returns the bearing v points along, to the nearest millidegree
// (within the precision of [Sin]), in [0°, 360°). The zero vector has
// bearing 0.
func (v Vector) Bearing() Angle {
	x, y := int64(v.X), int64(v.Y)
	if x == 0 && y == 0 {
		return 0
	}
	// Turn v anticlockwise by quarter turns until it lies in [0°, 90°).
	var base Angle
	for !(x >= 0 && y > 0) {
		x, y = -y, x
		base += 90 * Degree
	}
	// Largest m in [0, 90000) with tan(m) <= x/y, i.e. Sin(m)·y <= Cos(m)·x.
	lo, hi := Angle(0), 90*Degree // invariant: ok(lo), !ok(hi) (x/y < ∞)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if Sin(mid)*y <= Cos(mid)*x {
			lo = mid
		} else {
			hi = mid
		}
	}
	// Pick the nearer of lo and hi: the smaller |cross|.
	dlo := abs64(Sin(lo)*y - Cos(lo)*x)
	dhi := abs64(Sin(hi)*y - Cos(hi)*x)
	m := lo
	if dhi < dlo {
		m = hi
	}
	return (base + m).Norm()
}

// Bearing returns the bearing from p to q; see [Vector.Bearing].
func Bearing(p, q Point) Angle { return q.Sub(p).Bearing() }

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
