package play

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"pbem/engine"
	"pbem/events"
)

// SeedSize is the size of a game's dice seed.
const SeedSize = 32

// NewSeed draws a game's dice seed from the operating system's random source.
// It is the one place the engine uses randomness, at game creation.
func NewSeed() ([]byte, error) {
	seed := make([]byte, SeedSize)
	if _, err := rand.Read(seed); err != nil {
		return nil, fmt.Errorf("draw dice seed: %w", err)
	}
	return seed, nil
}

// Commit returns the commitment logged at creation: SHA-256(seed).
func Commit(seed []byte) events.Hash { return sha256.Sum256(seed) }

// RollValue derives roll number index of game from seed, as a value in
// 1..sides:
//
//	block(a) = HMAC-SHA256(key=seed, msg = game ‖ 0x00 ‖ uint64be(index) ‖ uint32be(a))
//	x        = uint64be(first 8 bytes of block(a))
//	accept x if x < ⌊2⁶⁴ / sides⌋·sides, and return 1 + x mod sides;
//	otherwise try a+1 (rejection sampling: no modulo bias).
//
// Anyone holding the revealed seed can recompute every roll with this
// procedure (the README shows it in a few lines of any language).
func RollValue(seed []byte, game string, index uint64, sides int) int {
	if sides < 1 {
		panic(fmt.Sprintf("dice: %d sides", sides))
	}
	n := uint64(sides)
	limit := (^uint64(0) / n) * n // largest multiple of n that fits; x ≥ limit is rejected
	msg := make([]byte, 0, len(game)+13)
	msg = append(msg, game...)
	msg = append(msg, 0)
	msg = binary.BigEndian.AppendUint64(msg, index)
	for attempt := uint32(0); ; attempt++ {
		m := hmac.New(sha256.New, seed)
		m.Write(binary.BigEndian.AppendUint32(msg, attempt))
		x := binary.BigEndian.Uint64(m.Sum(nil))
		if x < limit {
			return int(1 + x%n)
		}
	}
}

// Stream is the game's dice: each Roll takes the next roll index and is
// recorded, so the decision can log every die.
type Stream struct {
	seed   []byte
	game   string
	next   uint64
	Rolled []events.Die
	// seedFor, when set, gives the seed of each roll by its visibility
	// (nil: the game's): the acceptance suite's leak test throws the dice
	// hidden from one viewer from another seed, and checks that viewer
	// sees no difference.
	seedFor func(events.Vis) []byte
}

// NewStream starts rolling game's dice at roll index next.
func NewStream(seed []byte, game string, next uint64) *Stream {
	return &Stream{seed: seed, game: game, next: next}
}

// Roll implements Dice.
func (s *Stream) Roll(purpose string, sides int) int { return s.roll(events.Vis{}, purpose, sides) }

// As implements Dice: the same stream, its rolls recorded as visible to
// vis's viewers alone.
func (s *Stream) As(vis events.Vis) engine.Dice { return hiddenDice{s, vis} }

func (s *Stream) roll(vis events.Vis, purpose string, sides int) int {
	seed := s.seed
	if s.seedFor != nil {
		if other := s.seedFor(vis); other != nil {
			seed = other
		}
	}
	v := RollValue(seed, s.game, s.next, sides)
	s.Rolled = append(s.Rolled, events.Die{Index: s.next, Purpose: purpose, Sides: sides, Value: v, Vis: vis})
	s.next++
	return v
}

// roller is a dice stream that rolls with a visibility.
type roller interface {
	roll(vis events.Vis, purpose string, sides int) int
}

// hiddenDice are a stream's dice seen only by vis's viewers.
type hiddenDice struct {
	r   roller
	vis events.Vis
}

func (h hiddenDice) Roll(purpose string, sides int) int { return h.r.roll(h.vis, purpose, sides) }
func (h hiddenDice) As(vis events.Vis) engine.Dice      { return hiddenDice{h.r, vis} }

// Recorded replays dice already in the log, in order, without the seed (an
// audit before the seed is revealed). Mismatch records the first roll that
// was asked for differently from how it was logged.
type Recorded struct {
	Dice     []events.Die
	i        int
	Mismatch string
}

// Roll implements Dice.
func (r *Recorded) Roll(purpose string, sides int) int { return r.roll(events.Vis{}, purpose, sides) }

// As implements Dice.
func (r *Recorded) As(vis events.Vis) engine.Dice { return hiddenDice{r, vis} }

func (r *Recorded) roll(vis events.Vis, purpose string, sides int) int {
	if r.i >= len(r.Dice) {
		if r.Mismatch == "" {
			r.Mismatch = fmt.Sprintf("roll %d (%s d%d) asked for, but only %d were logged", r.i+1, purpose, sides, len(r.Dice))
		}
		return 1
	}
	d := r.Dice[r.i]
	r.i++
	if (d.Purpose != purpose || d.Sides != sides) && r.Mismatch == "" {
		r.Mismatch = fmt.Sprintf("roll %d asked for %s d%d, the log has %s d%d", r.i, purpose, sides, d.Purpose, d.Sides)
	}
	if d.Vis != vis && r.Mismatch == "" {
		r.Mismatch = fmt.Sprintf("roll %d (%s) asked for as %q, the log has it as %q", r.i, purpose, vis, d.Vis)
	}
	return d.Value
}

// Used reports whether every logged roll was asked for.
func (r *Recorded) Used() bool { return r.i == len(r.Dice) }

// VerifyDie recomputes d from the revealed seed.
func VerifyDie(seed []byte, game string, d events.Die) error {
	if v := RollValue(seed, game, d.Index, d.Sides); v != d.Value {
		return fmt.Errorf("roll #%d (%s, d%d): log says %d, seed gives %d", d.Index, d.Purpose, d.Sides, d.Value, v)
	}
	return nil
}
