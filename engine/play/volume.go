// How much mail each reader gets: the volume a player chose (MAIL EVERY,
// MAIL TURN, MAIL MOVE, or the game's setting), and the parts of reports
// held for a reader until a mail tells them.

package play

import (
	"fmt"
	"strings"

	"pbem/events"
)

// The mail volumes a reader may choose.
const (
	// VolumeEvery is a mail for every action, to everyone.
	VolumeEvery = "every"
	// VolumeTurn is a digest when a game turn ends (and a mail whenever
	// the reader must act), telling everything since the reader's last
	// mail, in order.
	VolumeTurn = "turn"
	// VolumeMove is a mail only when the reader must act, telling
	// everything since their last mail, in order.
	VolumeMove = "move"
)

// DefaultVolume is the volume of a player or referee whose game sets none:
// a mail only when they must act, like a judge's "only when it is my
// turn". Observers, who never act, get TURN.
const DefaultVolume = VolumeMove

// SettingMail is the game's mail volume for everyone ("mail" = "turn");
// SettingMailPrefix starts one reader's own ("mail.anna" = "every"), which
// their MAIL line sets.
const (
	SettingMail       = "mail"
	SettingMailPrefix = "mail."
)

// WordMail is the players' word for their mail volume: MAIL EVERY|TURN|MOVE.
const WordMail = "MAIL"

// volumeWords are the words MAIL takes, each for its volume; any unique
// prefix of one is read as it.
var volumeWords = []struct{ word, volume string }{
	{"EVERY", VolumeEvery}, {"ALL", VolumeEvery}, {"EACH", VolumeEvery},
	{"TURN", VolumeTurn}, {"DIGEST", VolumeTurn},
	{"MOVE", VolumeMove}, {"MINE", VolumeMove},
}

// ParseVolume reads a mail volume as a player may write it: EVERY (or
// ALL, EACH), TURN (or DIGEST), MOVE (or MINE), in any case, or a unique
// prefix of one of them ("ev", "t", "mo").
func ParseVolume(s string) (string, error) {
	w := strings.ToUpper(strings.TrimSpace(s))
	if w == "" {
		return "", fmt.Errorf("no mail volume (write EVERY, TURN or MOVE)")
	}
	found := ""
	for _, v := range volumeWords {
		if v.word == w {
			return v.volume, nil
		}
		if strings.HasPrefix(v.word, w) {
			if found != "" && found != v.volume {
				return "", fmt.Errorf("%q may be %s: write EVERY, TURN or MOVE", s, ambiguousVolumes(w))
			}
			found = v.volume
		}
	}
	if found == "" {
		return "", fmt.Errorf("%q is not a mail volume (write EVERY, TURN or MOVE)", s)
	}
	return found, nil
}

func ambiguousVolumes(prefix string) string {
	var out []string
	for _, v := range volumeWords {
		if strings.HasPrefix(v.word, prefix) {
			out = append(out, v.word)
		}
	}
	return strings.Join(out, " or ")
}

// Volume is the mail volume of reader id: their own setting, else the
// game's, else DefaultVolume (TURN for an observer).
func (g *Game) Volume(id string) string {
	if v := g.setting(SettingMailPrefix + id); v != "" {
		if vol, err := ParseVolume(v); err == nil {
			return vol
		}
	}
	if v := g.setting(SettingMail); v != "" {
		if vol, err := ParseVolume(v); err == nil {
			return vol
		}
	}
	if strings.HasPrefix(id, ObserverPrefix) {
		return VolumeTurn
	}
	return DefaultVolume
}

// Held is one part of a report held for Reader (events.MailHeld), stored
// at Seq. Its text stays deflated, as the log stores it, until a digest
// reads it (Text): a game holds many parts and reads them once.
type Held struct {
	Seq      uint64
	Reader   string
	Kind     string
	Deflated events.Deflated
	Board    bool
}

// Text is the part's text: an error if the log's bytes are damaged.
func (h Held) Text() (string, error) {
	s, err := h.Deflated.Text()
	if err != nil {
		return "", fmt.Errorf("the part held at seq %d for %s: %w", h.Seq, h.Reader, err)
	}
	return s, nil
}

// hold folds a mail.held event that holds a part (see told for one
// that tells them).
func (g *Game) hold(h Held) { g.Held = append(g.Held, h) }

// told drops the parts held for reader: a digest told them.
func (g *Game) told(reader string) {
	kept := g.Held[:0]
	for _, x := range g.Held {
		if x.Reader != reader {
			kept = append(kept, x)
		}
	}
	clear(g.Held[len(kept):])
	g.Held = kept
}

// HeldFor are the parts held for reader, in log order.
func (g *Game) HeldFor(reader string) []Held {
	var out []Held
	for _, h := range g.Held {
		if h.Reader == reader {
			out = append(out, h)
		}
	}
	return out
}

// mail is a player's MAIL <volume>: how much mail they get.
func (pw *playerDecision) mail(args []string) {
	if len(args) != 1 {
		pw.problem("write MAIL EVERY (a mail for every action), MAIL TURN (a digest each turn) or MAIL MOVE (a mail only when you must act)", "MAIL MOVE")
		return
	}
	vol, err := ParseVolume(args[0])
	if err != nil {
		pw.problem(err.Error(), "MAIL MOVE")
		return
	}
	key := SettingMailPrefix + pw.who.ID
	was := pw.g.Volume(pw.who.ID)
	pw.add(fmt.Sprintf("MAIL %s (was %s): %s", strings.ToUpper(vol), strings.ToUpper(was), VolumeMeaning(vol)),
		events.NewFact(FactSetting, events.S("key", key), events.S("value", vol), events.S("was", pw.g.setting(key))))
}

// VolumeMeaning says in words what a volume sends.
func VolumeMeaning(vol string) string {
	switch vol {
	case VolumeEvery:
		return "a mail for every action"
	case VolumeTurn:
		return "a digest of what happened each turn, and a mail whenever you must act"
	}
	return "a mail only when you must act, telling what happened since your last mail"
}
