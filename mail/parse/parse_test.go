package parse

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// crlf turns a test mail written with "\n" into the CRLF form mail has.
func crlf(s string) []byte {
	return []byte(strings.ReplaceAll(strings.TrimPrefix(s, "\n"), "\n", "\r\n"))
}

func lineTexts(lines []Line) []string {
	out := []string{}
	for _, l := range lines {
		out = append(out, fmt.Sprintf("%d:%s", l.No, l.Text))
	}
	return out
}

func TestNewText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // "No:Text"
	}{
		{"plain lines, blanks and trailing space dropped",
			"MARCH Newton 2314  \n\n  IF ZOC THEN STOP\t\nPASS\n",
			[]string{"1:MARCH Newton 2314", "3:  IF ZOC THEN STOP", "4:PASS"}},
		{"quoted and nested quoted lines",
			"> a\n>> b\n  > c\nPASS\n",
			[]string{"4:PASS"}},
		{"English attribution on one line",
			"PASS\n\nOn Mon, Mar 03, 2025 at 02:02:11PM +0100, PBEM Referee wrote:\n> Turn 14\n",
			[]string{"1:PASS"}},
		{"Gmail attribution wrapped after the '<'",
			"MARCH Newton 2314\nPASS\n\nOn Mon, 3 Mar 2025 at 14:02, PBEM Referee <\npbem+g1.p2.abc@example.org> wrote:\n\n> Turn 14\n",
			[]string{"1:MARCH Newton 2314", "2:PASS"}},
		{"Thunderbird attribution wrapped inside the name",
			"On 03/03/2025 14:02, PBEM Referee of the Afrika\nKorps game wrote:\n> Turn 14\nPASS\n",
			[]string{"4:PASS"}},
		{"an order above a dateless attribution stays",
			"MARCH Newton 2314 2315\nPBEM Referee <pbem+g1.p2.abc@example.org> wrote:\n> Turn 14\n",
			[]string{"1:MARCH Newton 2314 2315"}},
		{"Apple Mail attribution",
			"PASS\n\nOn 3 Mar 2025, at 14:02, PBEM Referee <pbem+g1.p2.abc@example.org> wrote:\n\n> Turn 14\n",
			[]string{"1:PASS"}},
		{"attribution with its quote dropped by HTML conversion",
			"PASS\nOn Monday, 3 March 2025 at 14:02:11 CET, PBEM Referee <x@example.org> wrote:\n",
			[]string{"1:PASS"}},
		{"a line ending in a colon with no quote after it stays",
			"My orders:\n\nMARCH Newton 2314\n",
			[]string{"1:My orders:", "3:MARCH Newton 2314"}},
		{"Outlook -----Original Message-----",
			"PASS\n\n-----Original Message-----\nFrom: PBEM Referee\nSent: Monday\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Outlook header block below a rule",
			"PASS\n\n________________________________\nFrom: PBEM Referee <x@example.org>\nSent: Monday, March 3, 2025 2:02 PM\nTo: Karl\nSubject: Turn 14\n\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Outlook header block as Gmail renders it, bold as stars",
			"PASS\n*From:* PBEM Referee <x@example.org>\n*Sent:* Monday, March 3, 2025 2:02 PM\n*To:* Karl\n\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"new Outlook header block with Date",
			"PASS\nFrom: PBEM Referee <x@example.org>\nDate: Monday, 3 March 2025 at 14:02\nTo: Karl\nSubject: Turn 14\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"a From line without a Sent line is text",
			"From: 2314\nMARCH Hooke 1907\n",
			[]string{"1:From: 2314", "2:MARCH Hooke 1907"}},
		{"Thunderbird forwarded and original separators",
			"PASS\n-------- Forwarded Message --------\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Gmail forwarded separator",
			"PASS\n---------- Forwarded message ---------\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"signature marker with space",
			"PASS\n-- \nJan Novak\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"signature marker without space",
			"PASS\n--\nJan Novak\n",
			[]string{"1:PASS"}},
		{"a quoted signature marker does not cut",
			"> Turn 14\n> -- \n> Referee\nPASS\n",
			[]string{"4:PASS"}},
		{"dashes with more on the line are text",
			"--x\n---\nPASS\n",
			[]string{"1:--x", "2:---", "3:PASS"}},
		{"Polish W dniu … pisze:",
			"W dniu 3.03.2025 o 14:02, Mistrz Gry pisze:\n> Tura 14\n\nPASS\n",
			[]string{"4:PASS"}},
		{"Polish W dniu … pisze: wrapped",
			"W dniu 3.03.2025 o 14:02, Mistrz Gry\n<pbem+g1.p2.abc@example.org> pisze:\n> Tura 14\nPASS\n",
			[]string{"4:PASS"}},
		{"Polish napisał(a): after an order line",
			"MARCH Newton 2314\nMistrz Gry <x@example.org> napisał(a):\n> Tura 14\n",
			[]string{"1:MARCH Newton 2314"}},
		{"Polish Gmail date wrapped",
			"PASS\npon., 3 mar 2025 o 14:02 Mistrz Gry <\nx@example.org> napisał(a):\n\n> Tura 14\n",
			[]string{"1:PASS"}},
		{"Polish Outlook separator",
			"PASS\n-----Wiadomość oryginalna-----\nOd: Mistrz Gry\nWysłano: poniedziałek\n",
			[]string{"1:PASS"}},
		{"Polish Outlook header block",
			"PASS\n\nOd: Mistrz Gry [mailto:x@example.org]\nWysłano: poniedziałek, 3 marca 2025 14:02\nDo: Jan\nTemat: Tura 14\n\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Japanese さんは書きました:",
			"PBEM Referee さんは書きました:\n> Turn 14\n# 命令\nPASS\n",
			[]string{"3:# 命令", "4:PASS"}},
		{"Japanese date name address colon",
			"PASS\n2025年3月3日(月) 14:02 PBEM Referee <x@example.org>:\n> Turn 14\n",
			[]string{"1:PASS"}},
		{"Japanese date name address colon, wrapped",
			"PASS\n\n2025年3月3日(月) 14:02 PBEM Referee\n<x@example.org>:\n> Turn 14\n",
			[]string{"1:PASS"}},
		{"Japanese Outlook header block with full-width colons",
			"PASS\n差出人： PBEM Referee\n送信日時： 2025年3月3日 14:02\n宛先： 山田\n\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Japanese Original Message",
			"# 命令\nPASS\n-----Original Message-----\n差出人: PBEM Referee\n送信日時: 2025年3月3日 14:02\n",
			[]string{"1:# 命令", "2:PASS"}},
		{"mobile trailers",
			"PASS\n\nSent from my iPhone\nWysłane z iPhone'a\niPhoneから送信\nGet Outlook for Android\n",
			[]string{"1:PASS"}},
		// The world's mail clients. From is "Jan Novak
		// <jan.novak@example.cz>" for every case.
		{"Spanish Outlook header block",
			"PASS\n\n________________________________\nDe: PBEM Referee <x@example.org>\nEnviado el: lunes, 3 de marzo de 2025 14:02\nPara: Jan\nAsunto: Turno 14\n\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Italian Outlook header block",
			"PASS\nDa: PBEM Referee <x@example.org>\nInviato: lunedì 3 marzo 2025 14:02\nA: Jan\nOggetto: Turno 14\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Dutch Outlook header block",
			"PASS\nVan: PBEM Referee <x@example.org>\nVerzonden: maandag 3 maart 2025 14:02\nAan: Jan\nOnderwerp: Beurt 14\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Portuguese Outlook header block",
			"PASS\nDe: PBEM Referee <x@example.org>\nEnviada em: segunda-feira, 3 de março de 2025 14:02\nPara: Jan\nAssunto: Turno 14\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Russian Outlook header block",
			"PASS\nОт: PBEM Referee <x@example.org>\nОтправлено: 3 марта 2025 г. 14:02\nКому: Jan\nТема: Ход 14\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Italian -----Messaggio originale-----",
			"PASS\n-----Messaggio originale-----\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Dutch -----Oorspronkelijk bericht-----",
			"PASS\n-----Oorspronkelijk bericht-----\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"Apple Mail Begin forwarded message",
			"PASS\n\nBegin forwarded message:\n\nFrom: PBEM Referee\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"attribution wrapped over three lines",
			"MARCH Newton 2314\n\nOn Dec 16, 2011, at 12:47 PM, PBEM Referee\n<pbem+g1.p2.abc@example.org>\nwrote:\n\n> Turn 14\n",
			[]string{"1:MARCH Newton 2314"}},
		{"attribution wrapped over four lines",
			"PASS\nOn Mon, Dec 16, 2011\nat 12:47 PM, PBEM\nReferee <pbem+g1.p2.abc@example.org>\nwrote:\n> Turn 14\n",
			[]string{"1:PASS"}},
		{"German Gmail attribution",
			"PASS\n\nAm Mo., 3. März 2025 um 14:02 Uhr schrieb PBEM Referee <x@example.org>:\n\n> Zug 14\n",
			[]string{"1:PASS"}},
		{"Italian Gmail attribution",
			"PASS\n\nIl giorno lun 3 mar 2025 alle ore 14:02 PBEM Referee <x@example.org> ha\nscritto:\n\n> Turno 14\n",
			[]string{"1:PASS"}},
		{"attribution above an unquoted original cuts it",
			"PASS\n\nOn Mon, 3 Mar 2025 at 14:02, PBEM Referee <x@example.org> wrote:\n\nTurn 14 of Afrika 42.\nMARCH Hooke 1907\n",
			[]string{"1:PASS"}},
		{"closing line and name without -- ",
			"MARCH Newton 2314\n\nThanks,\nJan\n",
			[]string{"1:MARCH Newton 2314"}},
		{"closing with a name on one line",
			"PASS\nCheers, Jan\n",
			[]string{"1:PASS"}},
		{"closing and a signature block of a few lines",
			"PASS\n\nMit freundlichen Grüßen\nJan Novak\nOberst a.D., Kriegsspielverein\n+49 30 1234567\n",
			[]string{"1:PASS"}},
		{"a name line under the orders",
			"MARCH Newton 2314\nJan\n",
			[]string{"1:MARCH Newton 2314"}},
		{"a dashed initial under the orders",
			"PASS\n\n-J.\n",
			[]string{"1:PASS"}},
		{"a word that is not the sender's name stays",
			"MARCH Newton 2314\nHooke\n",
			[]string{"1:MARCH Newton 2314", "2:Hooke"}},
		{"greeting above the orders",
			"Hi referee,\n\nMARCH Newton 2314\n",
			[]string{"3:MARCH Newton 2314"}},
		{"mailing list footer",
			"PASS\n_______________________________________________\nWargamers mailing list\nWargamers@lists.example.org\nhttps://lists.example.org/mailman/listinfo/wargamers\n",
			[]string{"1:PASS"}},
		{"a rule line alone is text",
			"PASS\n__________\nMARCH Hooke 1907\n",
			[]string{"1:PASS", "2:__________", "3:MARCH Hooke 1907"}},
		{"phone trailers in other languages",
			"PASS\n\nVon meinem iPhone gesendet\nEnvoyé de mon iPhone\nEnviado desde mi iPhone\nInviato da iPhone\nVerzonden vanaf mijn iPhone\nОтправлено с iPhone\nSent from my Samsung Galaxy smartphone.\nSent with Proton Mail secure email.\n",
			[]string{"1:PASS"}},
		{"a sentence that starts like a trailer stays",
			"PASS\nSent from my desk, is much easier than my mobile phone.\n",
			[]string{"1:PASS", "2:Sent from my desk, is much easier than my mobile phone."}},
		{"sent from something that is not a device stays",
			"Sent from my hotel room\nPASS\n",
			[]string{"1:Sent from my hotel room", "2:PASS"}},
		{"empty", "", nil},
		{"only blank lines", "\n \n\t\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, _ := newText(tt.in, Address{Name: "Jan Novak", Addr: "jan.novak@example.cz"})
			got := lineTexts(kept)
			if !slices.Equal(got, append([]string{}, tt.want...)) {
				t.Errorf("newText(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestUnflow(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		delSp bool
		want  string
	}{
		{"soft break joins", "MARCH Newton \n2314 2315\n", false, "MARCH Newton 2314 2315\n"},
		{"DelSp=yes drops the added space", "MARCH New\nton\n", true, "MARCH New\nton\n"},
		{"DelSp=yes joins without the space", "命令: ニュー \nトン\n", true, "命令: ニュートン\n"},
		{"space-stuffing removed", " From 2316\n  IF ZOC\n", false, "From 2316\n IF ZOC\n"},
		{"quoted soft break joins", "> a \n> b\n", false, "> a b\n"},
		{"quote marks without space", ">a \n>b\n", false, "> a b\n"},
		{"depth change ends the paragraph", "> a \nb\n", false, "> a \nb\n"},
		{"nested quotes", ">> a \n>> b\n> c\n", false, ">> a b\n> c\n"},
		{"signature separator is never flowed", "-- \nJan\n", false, "-- \nJan\n"},
		{"soft break does not join the separator", "PASS \n-- \nJan\n", false, "PASS \n-- \nJan\n"},
		{"flowed last line", "PASS ", false, "PASS \n"},
		{"empty quoted line", ">\n> a\n", false, "> \n> a\n"},
		{"blank lines kept", "a\n\nb\n", false, "a\n\nb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unflow(tt.in, tt.delSp); got != tt.want {
				t.Errorf("unflow(%q, %v) = %q, want %q", tt.in, tt.delSp, got, tt.want)
			}
		})
	}
}

func TestHTMLToText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"br and p", "a<br>b<p>c</p>d", "a\nb\nc\nd"},
		{"self-closing br, upper case", "a<BR/>b<Br />c", "a\nb\nc"},
		{"Gmail divs and blank line", "<div dir=\"ltr\"><div>a</div><div><br></div><div>b</div></div>", "a\n\nb\n"},
		{"Outlook paragraphs", "<p class=MsoNormal>a<o:p></o:p></p><p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoNormal>b<o:p></o:p></p>", "a\n \nb\n"},
		{"script, style, title dropped", "<head><title>T</title><style>p { color: red }</style></head><body><script>x = '<p>';</script>Hi</body>", "Hi\n"},
		{"comments and conditional comments", "a<!-- <b>x</b> -->b<!--[if gte mso 9]><xml><o:x/></xml><![endif]-->c", "abc"},
		{"downlevel-revealed conditionals", "<![if !supportLists]>1.<![endif]> MARCH", "1. MARCH"},
		{"unterminated comment", "a<!-- b", "a"},
		{"entities", "&lt;x&gt; &amp; &#322;&#x119; &quot;q&quot; caf&eacute;", "<x> & łę \"q\" café"},
		{"nbsp becomes space, kept at line start", "<div>&nbsp;&nbsp;IF ZOC</div>", "  IF ZOC\n"},
		{"white space collapsed", "<p>\n  MARCH\n\t Newton   2314\n</p>", "MARCH Newton 2314\n"},
		{"blockquote dropped, nested", "a<blockquote>q<blockquote>qq</blockquote>q</blockquote>b", "a\nb"},
		{"stray end blockquote", "a</blockquote>b", "a\nb"},
		{"lone less-than is text", "2 < 3 and 4 <= 5", "2 < 3 and 4 <= 5"},
		{"quoted greater-than in attribute", `<a title="x>y" href='a>b'>link</a>`, "link"},
		{"pre keeps white space", "<pre>a\n  b</pre>c", "a\n  b\nc"},
		{"Thunderbird signature in pre", "PASS<br><pre class=\"moz-signature\" cols=\"72\">-- \nJan</pre>", "PASS\n-- \nJan\n"},
		{"table cells", "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "a b\nc\n"},
		{"list items", "<ul><li>one</li><li>two</li></ul>", "one\ntwo\n"},
		{"CDATA", "<![CDATA[a<b]]>c", "a<bc"},
		{"unclosed tag dropped", "a<b href='x", "a"},
		{"doctype", "<!DOCTYPE html><html><body>x</body></html>", "x\n"},
		{"inline tags join words", "a<b>b</b><i> c</i>", "ab c"},
		// Text a reader does not see is not an order.
		{"display:none dropped", `<div>PASS</div><div style="display: none">MARCH Hooke 1907</div><div>x</div>`, "PASS\nx\n"},
		{"hidden nested in hidden", `<span style="DISPLAY:NONE">a<b>b</b><span>c</span>d</span>e`, "e"},
		{"hidden attribute", `<p hidden>a</p><p>b</p>`, "b\n"},
		{"preheader: font-size 0, max-height 0", `<div style="font-size:0px;max-height:0;overflow:hidden">pre</div><div style="font-size:0.9em">b</div>`, "b\n"},
		{"mso-hide and visibility", `<span style='mso-hide:all'>a</span><span style="visibility:hidden">b</span>c`, "c"},
		{"void and self-closed tags do not open", `<div style="display:none"><br><img src=x>a</div>b<span style="display:none"/>c`, "bc"},
		{"an implicitly closed p ends its hiding", `<p style="display:none">a<p>b`, "b"},
		{"opacity 0 but not 0.5", `<span style="opacity:0">a</span><span style="opacity:0.5">b</span>`, "b"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := htmlToText(tt.in); got != tt.want {
				t.Errorf("htmlToText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestDecodeCharset(t *testing.T) {
	tests := []struct {
		label, in, want string
		ok              bool
	}{
		{"ISO-2022-JP", "\x1b$B$\"0!\x1b(B", "あ亜", true},
		{"iso-2022-jp", "A\x1b$B$\"\x1b(BB", "AあB", true},
		{"ISO-2022-JP", "\x1b$B-!\x1b(B", "①", true}, // NEC row 13
		{"ISO-2022-JP", "\x1b(I1\x1b(B", "ｱ", true},  // JIS X 0201 katakana
		// x/text reads JIS X 0201 Roman (ESC ( J) as ASCII, as WHATWG does,
		// not as ¥ and ‾.
		{"ISO-2022-JP", "\x1b(J\\~\x1b(B", "\\~", true},
		{"ISO-2022-JP", "\x1b$B$\"\nA", "あ\nA", true}, // a line break returns to ASCII
		{"ISO-2022-JP", "\x1b$B$", "\ufffd", true},
		{"ISO-2022-JP", "a\xffb", "a\ufffdb", true},
		{"ISO-2022-JP", "\x1b$(D01\x1b(B", "乄", true}, // JIS X 0212 (RFC 2237), U+4E44
		{"Shift_JIS", "\x82\xa0\x88\x9f\x87\x40\xb1", "あ亜①ｱ", true},
		{"windows-31j", "\x82", "\ufffd", true},
		{"EUC-JP", "\xa4\xa2\xb0\xa1\x8e\xb1", "あ亜ｱ", true},
		{"windows-1250", "\xb9\x9c\xbf\x8c", "ąśżŚ", true},
		{"cp1250", "\xb3", "ł", true},
		{"ISO-8859-2", "\xb1\xb6\xbf\xa6", "ąśżŚ", true},
		{"latin2", "\xb3", "ł", true},
		{"iso-8859-1", "caf\xe9 \x80", "café €", true},
		{"KOI8-R", "\xf0\xd2\xc9", "При", true},
		{"UTF-8", "a\xffb", "a\ufffdb", true},
		{"utf8", "ł", "ł", true},
		{"us-ascii", "abc", "abc", true},
		{"", "ł", "ł", true},
		{"x-klingon", "ab\xff", "ab\ufffd", false},
		// Labels outside the WHATWG and IANA lists that clients send.
		{"iso-2022-jp-2", "\x1b$B$\"\x1b(B", "あ", true},
		{"CP932", "\x82\xa0", "あ", true},
		{"euc_jp", "\xa4\xa2", "あ", true},
		{"latin9", "\xa4", "€", true},
		{"\"ascii\"", "ł", "ł", true},
		{"ANSI_X3.4-1968", "ł", "ł", true},
		{"IBM437", "\x80", "Ç", true},      // known to IANA only
		{"windows1250", "\xb3", "ł", true}, // IANA's cswindows1250
		// WHATWG's replacement encoding would make the text one U+FFFD.
		{"ISO-2022-KR", "PASS", "PASS", false},
	}
	for _, tt := range tests {
		t.Run(tt.label+" "+fmt.Sprintf("%q", tt.in), func(t *testing.T) {
			got, ok := decodeCharset(tt.label, []byte(tt.in))
			if got != tt.want || ok != tt.ok {
				t.Errorf("decodeCharset(%q, %q) = %q, %v; want %q, %v", tt.label, tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestBodyCharsets checks text parts that go-message converts through
// go-message/charset, and the ones it leaves to decodeCharset.
func TestBodyCharsets(t *testing.T) {
	tests := []struct {
		name, raw string
		want      []string
	}{
		{"Shift_JIS", "Content-Type: text/plain; charset=Shift_JIS\n\n\x96\xbd\x97\xdf \x82\xa0\n",
			[]string{"1:命令 あ"}},
		{"EUC-JP", "Content-Type: text/plain; charset=EUC-JP\n\n\xcc\xbf\xce\xe1\n", []string{"1:命令"}},
		{"ISO-2022-JP base64", "Content-Type: text/plain; charset=ISO-2022-JP\nContent-Transfer-Encoding: base64\n\nGyRCTD9OYRsoQgo=\n",
			[]string{"1:命令"}},
		{"windows-1250 quoted-printable", "Content-Type: text/plain; charset=windows-1250\nContent-Transfer-Encoding: quoted-printable\n\nPrzemarsz do =A3odzi =9Cmia=B3o\n",
			[]string{"1:Przemarsz do Łodzi śmiało"}},
		{"ISO-8859-2 HTML", "Content-Type: text/html; charset=iso-8859-2\n\n<p>Marsz do \xa3odzi</p>\n",
			[]string{"1:Marsz do Łodzi"}},
		{"ISO-8859-1 read as windows-1252", "Content-Type: text/plain; charset=iso-8859-1\n\n\x93PASS\x94 caf\xe9 \x80\n",
			[]string{"1:\u201cPASS\u201d café €"}},
		{"invalid bytes", "Content-Type: text/plain; charset=Shift_JIS\n\nPASS \x82\n", []string{"1:PASS \ufffd"}},
		{"label go-message does not know", "Content-Type: text/plain; charset=iso-2022-jp-2\n\n\x1b$BL?Na\x1b(B\n",
			[]string{"1:命令"}},
		{"octet-stream attachment", "Content-Type: application/octet-stream; name=orders.txt; charset=windows-1250\nContent-Disposition: attachment; filename=orders.txt\n\n\xb3\n",
			[]string{"1:ł"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse(crlf(tt.raw), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got := lineTexts(m.Orders().Lines); !slices.Equal(got, tt.want) {
				t.Errorf("Orders().Lines = %q, want %q", got, tt.want)
			}
			if len(m.Defects) > 0 {
				t.Errorf("Defects = %q, want none", m.Defects)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		name, header, want string
	}{
		{"a person's mail", "From: Jan <jan@example.cz>\nReturn-Path: <jan@example.cz>\n", ""},
		{"Auto-Submitted: no", "Auto-Submitted: no\n", ""},
		{"Auto-Submitted: auto-generated", "Auto-Submitted: auto-generated\n", "Auto-Submitted: auto-generated"},
		{"Auto-Submitted with a comment", "Auto-Submitted: Auto-Replied (vacation)\n", "Auto-Submitted: Auto-Replied (vacation)"},
		{"Precedence: bulk", "Precedence: bulk\n", "Precedence: bulk"},
		{"Precedence: junk", "Precedence: junk\n", "Precedence: junk"},
		{"Precedence: list", "Precedence: list\n", "Precedence: list"},
		{"Precedence: auto_reply", "Precedence: auto_reply\n", "Precedence: auto_reply"},
		{"Precedence: first-class", "Precedence: first-class\n", ""},
		{"List-Id", "List-Id: Wargamers <wargamers.lists.example.org>\n", "List-Id: Wargamers <wargamers.lists.example.org>"},
		{"List-Unsubscribe", "List-Unsubscribe: <mailto:leave@lists.example.org>\n", "List-Unsubscribe: <mailto:leave@lists.example.org>"},
		{"X-Autoreply", "X-Autoreply: yes\n", "X-Autoreply: yes"},
		{"X-Autorespond", "X-Autorespond: Out of office\n", "X-Autorespond: Out of office"},
		{"null Return-Path", "Return-Path: <>\n", "Return-Path: <> (null sender)"},
		{"null Return-Path with space", "Return-Path: < >\n", "Return-Path: <> (null sender)"},
		{"From MAILER-DAEMON", "From: MAILER-DAEMON@mx.example.org (Mail Delivery System)\n", "From: MAILER-DAEMON@mx.example.org"},
		{"From postmaster", "From: Postmaster <postmaster@example.org>\n", "From: postmaster@example.org"},
		{"Google's mailer-daemon", "From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>\n", "From: mailer-daemon@googlemail.com"},
		{"delivery report", "Content-Type: multipart/report; report-type=delivery-status;\n boundary=\"b\"\n", "Content-Type: multipart/report; report-type=delivery-status"},
		{"read receipt", "Content-Type: multipart/report; report-type=disposition-notification; boundary=b\n", "Content-Type: multipart/report; report-type=disposition-notification"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse(crlf(tt.header+"Subject: x\n\nbody\n"), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if m.Auto != tt.want {
				t.Errorf("Auto = %q, want %q", m.Auto, tt.want)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	raw := crlf(`
From "Mistrz Gry" Mon Mar  3 14:02:00 2025
Return-Path: <jan@example.pl>
Delivered-To: pbem+afrika42.p3.Kx7q2Lm9@pbem.example.org
Delivered-To: pbem@pbem.example.org
X-Original-To: PBEM+afrika42.p3.Kx7q2Lm9@pbem.example.org
From: "Kowalski, Jan" <jan@example.pl>
To: =?UTF-8?Q?Mistrz_Gry?= <pbem+afrika42.p3.Kx7q2Lm9@pbem.example.org>,
 other@example.org
Cc: undisclosed-recipients:;
Subject: =?iso-8859-2?Q?Zg=B3oszenie?=
 =?iso-8859-2?Q?_do_gry?= =?ISO-2022-JP?B?GyRCJCIbKEI=?=
Message-ID: <abc@example.pl>
In-Reply-To: <turn14@pbem.example.org>
References: <turn13@pbem.example.org>
 <turn14@pbem.example.org>
Date: Mon, 3 Mar 2025 14:02:00 +0100 (CET)

PASS
`)
	m, err := Parse(raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	check("From", m.From, Address{"Kowalski, Jan", "jan@example.pl"})
	check("To", m.To, []Address{{"Mistrz Gry", "pbem+afrika42.p3.Kx7q2Lm9@pbem.example.org"}, {"", "other@example.org"}})
	check("Cc", len(m.Cc), 0)
	// RFC 2047: the space between adjacent encoded words is not text.
	check("Subject", m.Subject, "Zgłoszenie do gryあ")
	check("MessageID", m.MessageID, "abc@example.pl")
	check("InReplyTo", m.InReplyTo, []string{"turn14@pbem.example.org"})
	check("References", m.References, []string{"turn13@pbem.example.org", "turn14@pbem.example.org"})
	check("Date", m.Date.UTC(), time.Date(2025, 3, 3, 13, 2, 0, 0, time.UTC))
	check("ReturnPath", m.ReturnPath, "jan@example.pl")
	check("Recipients", m.Recipients(), []string{
		"pbem+afrika42.p3.Kx7q2Lm9@pbem.example.org", "other@example.org", "pbem@pbem.example.org",
	})
	check("Lines", lineTexts(m.Body.Lines), []string{"1:PASS"})
	check("Defects", len(m.Defects), 0)
}

func TestHeadersLenient(t *testing.T) {
	raw := crlf("From: jan@example.pl <jan@example.pl>\nTo: Gra <pbem+g.p.x@example.org>, ,\nSubject: Pawe\xb3\nMessage-ID: abc@example.pl\nDate: someday\n\nPASS\n")
	m, err := Parse(raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if m.From.Addr != "jan@example.pl" {
		t.Errorf("From = %+v, want jan@example.pl", m.From)
	}
	if !slices.Contains(m.Recipients(), "pbem+g.p.x@example.org") {
		t.Errorf("Recipients() = %q, want the reply address", m.Recipients())
	}
	if m.Subject != "Pawe\ufffd" {
		t.Errorf("Subject = %q, want invalid UTF-8 replaced", m.Subject)
	}
	if m.MessageID != "abc@example.pl" {
		t.Errorf("MessageID = %q", m.MessageID)
	}
	if !m.Date.IsZero() || len(m.Defects) != 1 || !strings.Contains(m.Defects[0], "Date") {
		t.Errorf("Date = %v, Defects = %q; want zero and a Date defect", m.Date, m.Defects)
	}
}

func TestLimits(t *testing.T) {
	big := crlf("From: Karl <karl@example.de>\nAuto-Submitted: auto-replied\nSubject: x\n\n" + strings.Repeat("PASS\n", 600))
	parts := "From: k@example.de\nContent-Type: multipart/mixed; boundary=b\n\n"
	for range 5 {
		parts += "--b\nContent-Type: text/plain\n\nPASS\n"
	}
	parts += "--b--\n"
	longText := "From: k@example.de\n\n" + strings.Repeat("MARCH Newton 2314 2315 2316\n", 10)
	quotedText := "From: k@example.de\n\nPASS\n" + strings.Repeat("> MARCH Newton 2314 2315 2316\n", 100)
	attachText := "From: k@example.de\nContent-Type: multipart/mixed; boundary=b\n\n--b\n\nMARCH Newton 2314\n" +
		"--b\nContent-Disposition: attachment; filename=orders.txt\n\n" + strings.Repeat("MARCH Newton 2314\n", 5) + "--b--\n"

	tests := []struct {
		name     string
		raw      []byte
		lim      Limits
		want     *LimitError // nil: no error
		wantAuto string
		wantMsg  string
	}{
		{"over MaxBytes, still classified", big, Limits{MaxBytes: 1000},
			&LimitError{LimitBytes, 1000, len(big)}, "Auto-Submitted: auto-replied",
			fmt.Sprintf("the mail is %d bytes long, more than the 1000 accepted", len(big))},
		{"at MaxBytes", big, Limits{MaxBytes: len(big)}, nil, "Auto-Submitted: auto-replied", ""},
		{"over MaxParts", crlf(parts), Limits{MaxParts: 4},
			&LimitError{LimitParts, 4, 5}, "", "the mail has more than 4 MIME parts"},
		{"at MaxParts", crlf(parts), Limits{MaxParts: 6}, nil, "", ""},
		{"over MaxTextBytes", crlf(longText), Limits{MaxTextBytes: 100},
			&LimitError{LimitText, 100, 270}, "", "the mail has 270 bytes of new text, more than the 100 accepted"},
		{"quoted text does not count", crlf(quotedText), Limits{MaxTextBytes: 100}, nil, "", ""},
		{"attachments count", crlf(attachText), Limits{MaxTextBytes: 100},
			&LimitError{LimitText, 100, 102}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse(tt.raw, tt.lim)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
			} else {
				var le *LimitError
				if !errors.As(err, &le) {
					t.Fatalf("Parse error = %v, want a *LimitError", err)
				}
				if *le != *tt.want {
					t.Errorf("LimitError = %+v, want %+v", *le, *tt.want)
				}
				if tt.wantMsg != "" && le.Error() != tt.wantMsg {
					t.Errorf("LimitError.Error() = %q, want %q", le.Error(), tt.wantMsg)
				}
				if !strings.HasPrefix(err.Error(), "parse: ") {
					t.Errorf("error %q lacks context", err)
				}
				if m == nil {
					t.Fatal("no Message with a LimitError")
				}
				if len(m.Body.Lines) > 0 || len(m.Attachments) > 0 {
					t.Errorf("text returned with a LimitError: %+v", m)
				}
			}
			if m.Auto != tt.wantAuto {
				t.Errorf("Auto = %q, want %q", m.Auto, tt.wantAuto)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		raw  string
	}{
		{"empty", ""},
		{"no header fields", "\r\n\r\nPASS\r\n"},
		{"not a header", "this is not a mail\n\nPASS\n"},
		{"continuation first", " folded: x\n\nPASS\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse([]byte(tt.raw), Limits{})
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want an error", tt.raw, m)
			}
			if !strings.HasPrefix(err.Error(), "parse: reading header: ") {
				t.Errorf("error %q lacks context", err)
			}
		})
	}
}

func TestBody(t *testing.T) {
	tests := []struct {
		name       string
		raw        string
		wantLines  []string
		wantHTML   bool
		wantDefect string
	}{
		{"header only, no body", "From: a@example.org\nSubject: x", nil, false, ""},
		{"no Content-Type is text/plain", "From: a@example.org\n\nPASS\n", []string{"1:PASS"}, false, ""},
		{"malformed Content-Type is text/plain",
			"Content-Type: text/plain; charset=iso-8859-2; charset=iso-8859-2\n\nPASS \xb3\n",
			[]string{"1:PASS ł"}, false, ""},
		{"alternative prefers plain even when HTML comes first",
			"Content-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/html\n\n<p>HTML</p>\n--b\nContent-Type: text/plain\n\nPLAIN\n--b--\n",
			[]string{"1:PLAIN"}, false, ""},
		{"Apple Mail: alternative of plain and related HTML",
			"Content-Type: multipart/alternative; boundary=a\n\n--a\nContent-Type: text/plain; charset=us-ascii\n\nPLAIN\n--a\nContent-Type: multipart/related; boundary=r\n\n--r\nContent-Type: text/html\n\n<p>HTML</p>\n--r\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n--r--\n\n--a--\n",
			[]string{"1:PLAIN"}, false, ""},
		{"alternative of HTML only",
			"Content-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/html; charset=utf-8\n\n<div>MARCH</div><div>PASS</div>\n--b--\n",
			[]string{"1:MARCH", "2:PASS"}, true, ""},
		{"HTML charset from <meta>",
			"Content-Type: text/html\n\n<html><head><meta charset=\"iso-8859-2\"></head><body>rozkaz \xb3</body></html>\n",
			[]string{"1:rozkaz ł"}, true, ""},
		{"signed mail", "Content-Type: multipart/signed; protocol=\"application/pgp-signature\"; micalg=pgp-sha256; boundary=s\n\n--s\nContent-Type: text/plain; charset=utf-8\n\nPASS\n--s\nContent-Type: application/pgp-signature\n\n-----BEGIN PGP SIGNATURE-----\n--s--\n",
			[]string{"1:PASS"}, false, ""},
		{"format=flowed with DelSp=yes",
			"Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n\nMARCH New \nton 2314\n",
			[]string{"1:MARCH Newton 2314"}, false, ""},
		{"unknown charset", "Content-Type: text/plain; charset=x-klingon\n\nPASS\n",
			[]string{"1:PASS"}, false, `unknown charset "x-klingon"`},
		{"bad base64 keeps what decoded", "Content-Transfer-Encoding: base64\n\nUEFTUwpNQVJDSA==\n!!!!\n",
			[]string{"1:PASS", "2:MARCH"}, false, "text/plain part: illegal base64"},
		{"unknown transfer encoding", "Content-Transfer-Encoding: x-uuencode\n\nPASS\n",
			[]string{"1:PASS"}, false, `unknown Content-Transfer-Encoding "x-uuencode"`},
		{"multipart without boundary", "Content-Type: multipart/mixed\n\nPASS\n",
			nil, false, "multipart/mixed without a boundary"},
		{"multipart missing its end", "Content-Type: multipart/mixed; boundary=b\n\n--b\n\nPASS\n",
			[]string{"1:PASS"}, false, "text/plain part: unexpected EOF"},
		{"encrypted", "Content-Type: multipart/encrypted; protocol=\"application/pgp-encrypted\"; boundary=e\n\n--e\nContent-Type: application/pgp-encrypted\n\nVersion: 1\n--e\nContent-Type: application/octet-stream\n\n-----BEGIN PGP MESSAGE-----\n--e--\n",
			nil, false, "encrypted"},
		{"control characters and BOM removed, NUL marked", "Content-Type: text/plain; charset=utf-8\n\n\ufeffPA\x00SS\x07\n",
			[]string{"1:PA\uFFFDSS"}, false, ""},
		{"NUL marked alike in a base64 body", "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n" + base64.StdEncoding.EncodeToString([]byte("PA\x00SS\n")) + "\n",
			[]string{"1:PA\uFFFDSS"}, false, ""},
		{"NUL marked alike as an IMAP server gives it (0x80)", "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\nPA\x80SS\n",
			[]string{"1:PA\uFFFDSS"}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse(crlf(tt.raw), Limits{})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := lineTexts(m.Body.Lines); !slices.Equal(got, append([]string{}, tt.wantLines...)) {
				t.Errorf("Body.Lines = %q, want %q", got, tt.wantLines)
			}
			if m.Body.HTML != tt.wantHTML {
				t.Errorf("Body.HTML = %v, want %v", m.Body.HTML, tt.wantHTML)
			}
			if tt.wantDefect == "" && len(m.Defects) > 0 {
				t.Errorf("Defects = %q, want none", m.Defects)
			}
			if tt.wantDefect != "" && !slices.ContainsFunc(m.Defects, func(d string) bool { return strings.Contains(d, tt.wantDefect) }) {
				t.Errorf("Defects = %q, want one containing %q", m.Defects, tt.wantDefect)
			}
		})
	}
}

func TestOrders(t *testing.T) {
	mixed := func(body, attHeader, att string) []byte {
		return crlf("Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\n" + body +
			"\n--b\n" + attHeader + "\n\n" + att + "\n--b--\n")
	}
	const txt = "Content-Type: text/plain; name=orders.txt\nContent-Disposition: attachment; filename=orders.txt"
	tests := []struct {
		name     string
		raw      []byte
		wantName string
		want     []string
	}{
		{"orders in the body win", mixed("PASS", txt, "MARCH Newton 2314"), "", []string{"1:PASS"}},
		{"comment-only body gives way", mixed("# orders attached\n-- \nKarl", txt, "MARCH Newton 2314"), "orders.txt", []string{"1:MARCH Newton 2314"}},
		{"empty body gives way", mixed("", txt, "\nMARCH Newton 2314"), "orders.txt", []string{"2:MARCH Newton 2314"}},
		{"attachment lines are not stripped", mixed("", txt, "> x\nPASS\n-- \nMARCH"), "orders.txt", []string{"1:> x", "2:PASS", "3:--", "4:MARCH"}},
		{"Apple Mail inline attachment with a file name",
			mixed("", "Content-Type: text/plain; charset=us-ascii; name=orders.txt\nContent-Disposition: inline; filename=orders.txt", "PASS"),
			"orders.txt", []string{"1:PASS"}},
		{"octet-stream .txt", mixed("", "Content-Type: application/octet-stream; name=\"orders.txt\"\nContent-Disposition: attachment; filename=\"orders.txt\"", "PASS"),
			"orders.txt", []string{"1:PASS"}},
		{"RFC 2231 file name", mixed("", "Content-Type: text/plain\nContent-Disposition: attachment; filename*=UTF-8''rozkazy%20tura%2014.txt", "PASS"),
			"rozkazy tura 14.txt", []string{"1:PASS"}},
		{"HTML attachment ignored", mixed("", "Content-Type: text/html\nContent-Disposition: attachment; filename=x.html", "<p>PASS</p>"),
			"", []string{}},
		{"comment-only attachment does not win", mixed("# nothing", txt, "# nothing either"), "", []string{"1:# nothing"}},
		// A body that only points at the attachment.
		{"Orders attached.", mixed("Orders attached.", txt, "MARCH Newton 2314"), "orders.txt", []string{"1:MARCH Newton 2314"}},
		{"greeting, note and sign-off", mixed("Hi,\n\nSee attached.\n\nThanks,\nKarl", txt, "PASS"), "orders.txt", []string{"1:PASS"}},
		{"German note", mixed("Meine Befehle sind im Anhang.", txt, "PASS"), "orders.txt", []string{"1:PASS"}},
		{"Polish note", mixed("Rozkazy w załączniku", txt, "PASS"), "orders.txt", []string{"1:PASS"}},
		{"a body with an order wins over the attachment", mixed("PASS\nOrders attached.", txt, "MARCH Newton 2314"), "", []string{"1:PASS", "2:Orders attached."}},
		{"octet-stream without an extension", mixed("Orders attached.", "Content-Type: application/octet-stream\nContent-Disposition: attachment; filename=orders", "PASS"),
			"orders", []string{"1:PASS"}},
		{"binary octet-stream is no text", mixed("See attached.", "Content-Type: application/octet-stream\nContent-Disposition: attachment; filename=photo", "\x89PNG\x00\x01"),
			"", []string{"1:See attached."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse(tt.raw, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			o := m.Orders()
			if o.Name != tt.wantName {
				t.Errorf("Orders().Name = %q, want %q", o.Name, tt.wantName)
			}
			if got := lineTexts(o.Lines); !slices.Equal(got, tt.want) {
				t.Errorf("Orders().Lines = %q, want %q", got, tt.want)
			}
		})
	}
}
