package parse

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// publicReplyFixtures are the test mails of the well-known reply parser
// (github/email_reply_parser, test/emails): signatures, phone trailers,
// attributions in their layouts, Outlook's header blocks, answers above,
// below and between quotes. The corpus holds each in our own words, an
// order mail with the same shape, whose .want names it on its first line
// ("# The public reply-parser fixture <name>, in our words: …"); TestCorpus
// checks that each reads exactly.
var publicReplyFixtures = []string{
	"correct_sig", "email_1_1", "email_1_2", "email_1_3", "email_1_4", "email_1_5", "email_1_6", "email_1_7", "email_1_8",
	"email_2_1", "email_2_2", "email_2_3", "email_BlackBerry", "email_bullets", "email_iPhone", "email_long_quote",
	"email_multi_word_sent_from_my_mobile_device", "email_one_is_not_on", "email_sent_from_my_not_signature",
	"email_sig_delimiter_in_middle_of_line", "greedy_on", "pathological",
}

var fixtureNoteRE = regexp.MustCompile(`(?m)\A# The public reply-parser fixture (\S+), in our words: `)

// TestThePublicReplyParserFixturesAreAllInTheCorpus: 22 of 22 are there.
func TestThePublicReplyParserFixturesAreAllInTheCorpus(t *testing.T) {
	wants, err := filepath.Glob(filepath.Join("testdata", "*.want"))
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	for _, wf := range wants {
		data, err := os.ReadFile(wf)
		if err != nil {
			t.Fatal(err)
		}
		if m := fixtureNoteRE.FindSubmatch(data); m != nil {
			name := string(m[1])
			if !slices.Contains(publicReplyFixtures, name) {
				t.Errorf("%s names %q, not one of the public fixtures", wf, name)
			}
			if other, ok := found[name]; ok {
				t.Errorf("%s and %s both name %q", other, wf, name)
			}
			found[name] = wf
		}
	}
	for _, name := range publicReplyFixtures {
		if _, ok := found[name]; !ok {
			t.Errorf("the public fixture %s is not in the corpus", name)
		}
	}
	if len(found) != len(publicReplyFixtures) || len(publicReplyFixtures) != 22 {
		t.Errorf("%d of the %d public fixtures in the corpus, want 22 of 22", len(found), len(publicReplyFixtures))
	}
}
