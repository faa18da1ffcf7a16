package table

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Length is a distance or a coordinate on the table in whole micrometres.
type Length int64

// Units of length.
const (
	Micrometre Length = 1
	Millimetre Length = 1000
	Centimetre Length = 10 * Millimetre
	// OneInch is exactly 25.4 mm.
	OneInch Length = 25400
	// MaxCoord bounds every coordinate and every base dimension: 500 m.
	// Within ±MaxCoord all intermediate products fit in 64 (or, for
	// squared distances, 128) bits.
	MaxCoord Length = 500 * 1000 * Millimetre
)

// UM returns n micrometres.
func UM(n int64) Length { return Length(n) }

// MM returns n millimetres.
func MM(n int64) Length { return Length(n) * Millimetre }

// CM returns n centimetres.
func CM(n int64) Length { return Length(n) * Centimetre }

// Inch returns n inches (exactly n × 25.4 mm).
func Inch(n int64) Length { return Length(n) * OneInch }

// Abs returns |l|.
func (l Length) Abs() Length {
	if l < 0 {
		return -l
	}
	return l
}

// Unit is a unit for reading and writing lengths.
type Unit uint8

// Units for [ParseLength], [Length.Format] and rulers.
const (
	Centimetres Unit = iota
	Inches
	Millimetres
)

// Size returns the length of one u.
func (u Unit) Size() Length {
	switch u {
	case Inches:
		return OneInch
	case Millimetres:
		return Millimetre
	default:
		return Centimetre
	}
}

// Suffix returns the unit's short name: "cm", "in" or "mm".
func (u Unit) Suffix() string {
	switch u {
	case Inches:
		return "in"
	case Millimetres:
		return "mm"
	default:
		return "cm"
	}
}

// String returns the unit's short name.
func (u Unit) String() string { return u.Suffix() }

// String formats l in centimetres, exactly: "7.5cm", "-0.0001cm".
func (l Length) String() string { return l.Format(Centimetres) }

// Format writes l in unit u followed by the unit's suffix, without trailing
// zeros: "7.5cm", "3in", "65mm". Centimetres and millimetres are exact;
// inches are rounded to the nearest thousandth (half away from zero),
// because a micrometre is not a terminating decimal fraction of an inch.
func (l Length) Format(u Unit) string {
	return formatIn(l, u) + u.Suffix()
}

// formatIn writes l as a decimal number of u without the suffix.
func formatIn(l Length, u Unit) string {
	var scaled int64 // value × 10^dec
	var dec int
	switch u {
	case Inches:
		scaled, dec = divRound(int64(l)*1000, int64(OneInch)), 3
	case Millimetres:
		scaled, dec = int64(l), 3
	default:
		scaled, dec = int64(l), 4
	}
	neg := scaled < 0
	if neg {
		scaled = -scaled
	}
	s := strconv.FormatInt(scaled, 10)
	for len(s) <= dec {
		s = "0" + s
	}
	whole, frac := s[:len(s)-dec], strings.TrimRight(s[len(s)-dec:], "0")
	if frac != "" {
		whole += "." + frac
	}
	if neg && whole != "0" {
		whole = "-" + whole
	}
	return whole
}

// ErrLength is wrapped by every error of [ParseLength].
var ErrLength = errors.New("bad length")

// ParseLength reads a length with an explicit unit: "7.5cm", "7.5 cm",
// "65mm", "3in", "3 inches", `3"`, "-2cm", "+0.25in". Up to six decimals
// are accepted; a value that is not a whole number of micrometres (a
// fraction of an inch) is rounded to the nearest micrometre, half away from
// zero.
func ParseLength(s string) (Length, error) {
	return parseLength(s, 0, false)
}

// ParseLengthIn is like [ParseLength] but reads a bare number ("7.5") in
// unit def, the natural unit of a rule system.
func ParseLengthIn(s string, def Unit) (Length, error) {
	return parseLength(s, def, true)
}

func parseLength(s string, def Unit, haveDef bool) (Length, error) {
	orig := s
	s = strings.TrimSpace(s)
	num, rest := splitNumber(s)
	if num == "" {
		return 0, fmt.Errorf("%w %q: no number", ErrLength, orig)
	}
	rest = strings.ToLower(strings.TrimSpace(rest))
	var u Unit
	switch rest {
	case "cm", "centimetre", "centimetres", "centimeter", "centimeters":
		u = Centimetres
	case "mm", "millimetre", "millimetres", "millimeter", "millimeters":
		u = Millimetres
	case "in", "inch", "inches", `"`, "''":
		u = Inches
	case "":
		if !haveDef {
			return 0, fmt.Errorf("%w %q: no unit (cm, mm or in)", ErrLength, orig)
		}
		u = def
	default:
		return 0, fmt.Errorf("%w %q: unknown unit %q", ErrLength, orig, rest)
	}
	m, scale, err := parseDecimal(num, 6)
	if err != nil {
		return 0, fmt.Errorf("%w %q: %v", ErrLength, orig, err)
	}
	v := divRound(m*int64(u.Size()), scale)
	if v > int64(MaxCoord) || v < -int64(MaxCoord) {
		return 0, fmt.Errorf("%w %q: beyond ±500 m", ErrLength, orig)
	}
	return Length(v), nil
}

// splitNumber splits a leading decimal number (with an optional sign) from
// the rest of s.
func splitNumber(s string) (num, rest string) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		if s[i] != '.' {
			digits++
		}
		i++
	}
	if digits == 0 {
		return "", s
	}
	return s[:i], s[i:]
}

// parseDecimal reads "[+-]ddd[.ddd]" as m / scale with scale = 10^decimals.
func parseDecimal(num string, maxDec int) (m, scale int64, err error) {
	neg := false
	switch num[0] {
	case '-':
		neg = true
		num = num[1:]
	case '+':
		num = num[1:]
	}
	whole, frac, dot := strings.Cut(num, ".")
	if strings.Contains(frac, ".") || (dot && frac == "" && whole == "") {
		return 0, 0, errors.New("malformed number")
	}
	if len(frac) > maxDec {
		return 0, 0, fmt.Errorf("more than %d decimals", maxDec)
	}
	if len(strings.TrimLeft(whole, "0")) > 6 {
		return 0, 0, errors.New("too large")
	}
	scale = 1
	for range frac {
		scale *= 10
	}
	digits := whole + frac
	if digits == "" {
		digits = "0"
	}
	m, err = strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, 0, errors.New("malformed number")
	}
	if neg {
		m = -m
	}
	return m, scale, nil
}

// ISqrt returns the integer square root of n, rounded down.
func ISqrt(n uint64) uint64 {
	if n < 2 {
		return n
	}
	x := uint64(1) << ((bits.Len64(n) + 1) / 2) // x >= sqrt(n)
	for {
		y := (x + n/x) / 2
		if y >= x {
			return x
		}
		x = y
	}
}

// ceilSqrt returns the square root of n rounded up.
func ceilSqrt(n uint64) uint64 {
	s := ISqrt(n)
	if s*s < n {
		s++
	}
	return s
}

// divRound returns a/b rounded to the nearest integer, halves away from
// zero. b must be positive.
func divRound(a, b int64) int64 {
	if a >= 0 {
		return (a + b/2) / b
	}
	return -((-a + b/2) / b)
}

// floorDiv returns a/b rounded towards minus infinity; b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
