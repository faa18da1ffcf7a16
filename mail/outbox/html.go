package outbox

import (
	"html"
	"strings"
	"unicode/utf8"
)

// The HTML alternative of a mail with a drawn board is laid out for a
// phone first: what happened and what to do now, then the picture, then
// the board as text, then how to answer (the Key line) and the
// signature. Text wraps to the screen (white-space: pre-wrap keeps the
// mail's own line breaks and indents, and breaks a line too long for a
// narrow screen); the ASCII board and its tables keep their columns and
// scroll sideways in a box of their own, so the page is never wider than
// the screen. Styles are inline: mail clients drop style sheets.
const (
	htmlText  = "font-family: monospace; font-size: 13px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0 0 1em 0"
	htmlBox   = "overflow-x: auto; max-width: 100%; margin: 0 0 1em 0"
	htmlBoard = "font-family: monospace; font-size: 13px; white-space: pre; margin: 0"
	htmlImage = "display: block; max-width: 100%; height: auto; margin: 0 0 1em 0"
)

// footerRule is the line that starts every mail's footer (templates'
// footer.tmpl): how to answer, the Key line and the signature follow.
var footerRule = strings.Repeat("-", 70)

// mailSections splits a mail's text into what its HTML part shows in
// turn: what happened and what to do (top), the board as text (board),
// and the footer (foot). The board is the section under a heading that
// names it ("The board", "The final board"); a mail that is all board
// (the answer to BOARD) has it after the paragraph that introduces it,
// the first to end with a colon. Sections after the board ("Your move")
// belong to the top: what to do comes before the picture.
func mailSections(body string) (top, board, foot string) {
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	end := len(lines)
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i] == footerRule {
			end = i
			break
		}
	}
	foot = strings.Join(lines[end:], "\n")
	isHeading := func(i int) bool {
		return i+1 < end && lines[i] != "" && lines[i][0] != ' ' &&
			lines[i+1] == strings.Repeat("-", utf8.RuneCountInString(lines[i]))
	}
	from, to := -1, end
	for i := 0; i < end; i++ {
		if isHeading(i) && strings.Contains(strings.ToLower(lines[i]), "board") {
			from = i
			break
		}
	}
	if from >= 0 {
		for j := from + 2; j < end; j++ {
			if isHeading(j) {
				to = j
				break
			}
		}
	} else {
		for i := 0; i+1 < end; i++ {
			if strings.HasSuffix(lines[i], ":") && lines[i+1] == "" {
				from = i + 2
				break
			}
		}
	}
	if from < 0 || from >= end {
		return trimBlank(lines[:end]), "", foot
	}
	rest := append(append([]string(nil), lines[:from]...), lines[to:end]...)
	return trimBlank(rest), trimBlank(lines[from:to]), foot
}

// trimBlank joins lines, without the blank lines at either end.
func trimBlank(lines []string) string {
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// phoneHTML is the HTML alternative of a mail's text body with the
// drawn board whose Content-ID is cid.
func phoneHTML(body, cid string) string {
	top, board, foot := mailSections(body)
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">" +
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"></head>\n" +
		"<body style=\"margin: 8px\">\n")
	if top != "" {
		b.WriteString("<pre style=\"" + htmlText + "\">" + html.EscapeString(top) + "</pre>\n")
	}
	b.WriteString("<img src=\"cid:" + html.EscapeString(cid) + "\" alt=\"the map, drawn\" style=\"" + htmlImage + "\">\n")
	if board != "" {
		b.WriteString("<div style=\"" + htmlBox + "\"><pre style=\"" + htmlBoard + "\">" + html.EscapeString(board) + "</pre></div>\n")
	}
	if foot != "" {
		b.WriteString("<pre style=\"" + htmlText + "\">" + html.EscapeString(foot) + "</pre>\n")
	}
	b.WriteString("</body></html>\n")
	return b.String()
}
