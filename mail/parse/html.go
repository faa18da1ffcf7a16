package parse

import (
	"html"
	"strings"
)

// blockTags start and end a line, as block elements do in a browser.
var blockTags = map[string]bool{
	"p": true, "div": true, "li": true, "ul": true, "ol": true, "dl": true,
	"dt": true, "dd": true, "tr": true, "table": true, "tbody": true,
	"thead": true, "tfoot": true, "caption": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "pre": true, "hr": true,
	"blockquote": true, "section": true, "article": true, "header": true,
	"footer": true, "address": true, "center": true, "form": true,
	"fieldset": true, "body": true, "html": true, "nav": true, "aside": true,
	"main": true, "figure": true, "figcaption": true, "details": true,
	"summary": true,
}

// rawTextTags hold no text a reader sees; everything up to their end tag
// is dropped. (Not <head>: its end tag is optional, and what it holds that
// is not text is already dropped: <title>, <style>, Outlook's <xml>.)
var rawTextTags = map[string]bool{
	"script": true, "style": true, "title": true, "xml": true,
	"template": true,
}

// htmlToText renders an HTML mail body as the plain text a reader sees: no
// tags, scripts, styles or comments; <br>, block boundaries (</p>, </div>,
// </li>, </tr>, ...) as line breaks, without adding a blank line where the
// line is already empty (so <div>a</div><div><br></div><div>b</div> is
// "a", "", "b", as a browser shows it); table cells separated by a space;
// entities decoded; white space collapsed except inside <pre>; non-breaking
// spaces as spaces; and the content of <blockquote>, which is quoted text,
// dropped. It never fails: malformed markup degrades to text, much as a
// browser's does.
func htmlToText(src string) string {
	lower := asciiLower(src)
	var c htmlConv
	c.out.Grow(len(src) / 2)
	for i := 0; i < len(src); {
		if src[i] != '<' {
			j := strings.IndexByte(src[i:], '<')
			if j < 0 {
				j = len(src) - i
			}
			c.text(src[i : i+j])
			i += j
			continue
		}
		switch {
		case strings.HasPrefix(src[i:], "<!--"):
			i = skipPast(src, i+4, "-->")
			continue
		case strings.HasPrefix(src[i:], "<![CDATA["):
			j := strings.Index(src[i+9:], "]]>")
			if j < 0 {
				j = len(src) - i - 9
			}
			c.text(html.EscapeString(src[i+9 : i+9+j]))
			i = min(len(src), i+9+j+3)
			continue
		case strings.HasPrefix(src[i:], "<!"), strings.HasPrefix(src[i:], "<?"):
			i = skipPast(src, i+2, ">")
			continue
		}
		name, end, closing, ok := scanTag(src, lower, i)
		if !ok {
			c.text("<")
			i++
			continue
		}
		attrs := lower[i:end]
		i = end
		if rawTextTags[name] && !closing {
			i = skipPast(lower, i, "</"+name)
			i = skipPast(lower, i, ">")
			continue
		}
		c.nest(name, closing, attrs)
		if c.hidden == 0 {
			c.tag(name, closing)
		}
	}
	return strings.ReplaceAll(c.out.String(), "\u00a0", " ")
}

// htmlConv accumulates the text of an HTML document.
type htmlConv struct {
	out        strings.Builder
	inLine     bool // something written since the last '\n'
	spacePend  bool // a collapsed space is due before the next text
	quoteDepth int  // open <blockquote> elements
	preDepth   int  // open <pre> elements
	// open are the elements not yet closed, innermost last; hidden counts
	// those among them that hide what they hold (display:none …).
	open   []openElem
	hidden int
}

type openElem struct {
	name   string
	hidden bool
}

// voidTags have no end tag.
var voidTags = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true,
}

// nest keeps the stack of open elements, so that the text of an element a
// reader does not see (hidden by its style or the hidden attribute, such
// as a newsletter's preheader or text a sender hid on purpose) is dropped.
// An end tag closes the innermost open element of its name and those
// inside it; a <p> or <li> closes an open one of its kind, as in HTML.
func (c *htmlConv) nest(name string, closing bool, attrs string) {
	if closing {
		for k := len(c.open) - 1; k >= 0; k-- {
			if c.open[k].name == name {
				for _, e := range c.open[k:] {
					if e.hidden {
						c.hidden--
					}
				}
				c.open = c.open[:k]
				return
			}
		}
		return
	}
	if voidTags[name] || strings.HasSuffix(strings.TrimRight(attrs, "> \t\r\n"), "/") {
		return
	}
	if (name == "p" || name == "li") && len(c.open) > 0 && c.open[len(c.open)-1].name == name {
		if c.open[len(c.open)-1].hidden {
			c.hidden--
		}
		c.open = c.open[:len(c.open)-1]
	}
	h := hidesContent(attrs)
	if h {
		c.hidden++
	}
	c.open = append(c.open, openElem{name: name, hidden: h})
}

// hidesContent reports whether a start tag's attributes (in lower case)
// hide the element's content: the hidden attribute, or a style with
// display:none, visibility:hidden, mso-hide:all, font-size:0, opacity:0
// or max-height:0 with overflow:hidden.
func hidesContent(attrs string) bool {
	a := strings.Join(strings.Fields(attrs), "")
	switch {
	case strings.Contains(a, "display:none"), strings.Contains(a, "visibility:hidden"), strings.Contains(a, "mso-hide:all"):
		return true
	case zeroValue(a, "font-size:0"), zeroValue(a, "opacity:0"):
		return true
	case zeroValue(a, "max-height:0") && strings.Contains(a, "overflow:hidden"):
		return true
	}
	f := strings.Fields(attrs)
	for _, w := range f[min(1, len(f)):] { // f[0] is "<name"
		w = strings.TrimRight(w, "/>")
		if w == "hidden" || strings.HasPrefix(w, "hidden=") {
			return true
		}
	}
	return false
}

// zeroValue reports whether a holds prop (ending in "0") not followed by
// more digits or a decimal point: "font-size:0px" but not "font-size:0.9em".
func zeroValue(a, prop string) bool {
	for k := 0; ; {
		j := strings.Index(a[k:], prop)
		if j < 0 {
			return false
		}
		k += j + len(prop)
		if k >= len(a) || !(isDigit(a[k]) || a[k] == '.') {
			return true
		}
	}
}

func (c *htmlConv) newline() {
	c.out.WriteByte('\n')
	c.inLine, c.spacePend = false, false
}

// softNewline ends the current line unless it is empty.
func (c *htmlConv) softNewline() {
	if c.inLine {
		c.newline()
	}
	c.spacePend = false
}

func (c *htmlConv) tag(name string, closing bool) {
	switch {
	case name == "br":
		if c.quoteDepth == 0 {
			c.newline()
		}
		return
	case name == "td" || name == "th":
		if c.quoteDepth == 0 && c.inLine {
			c.spacePend = true
		}
		return
	case name == "blockquote":
		if closing {
			if c.quoteDepth > 0 {
				c.quoteDepth--
			}
		} else {
			c.quoteDepth++
		}
	case name == "pre":
		if closing {
			if c.preDepth > 0 {
				c.preDepth--
			}
		} else {
			c.preDepth++
		}
	}
	if blockTags[name] && c.quoteDepth == 0 {
		c.softNewline()
	}
}

func (c *htmlConv) text(raw string) {
	if c.quoteDepth > 0 || c.hidden > 0 || raw == "" {
		return
	}
	s := html.UnescapeString(raw)
	if c.preDepth > 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
		for len(s) > 0 {
			j := strings.IndexByte(s, '\n')
			if j < 0 {
				c.write(s)
				break
			}
			c.write(s[:j])
			c.newline()
			s = s[j+1:]
		}
		return
	}
	start := -1 // start of the current word
	for k := 0; k <= len(s); k++ {
		if k < len(s) && !isHTMLSpace(s[k]) {
			if start < 0 {
				start = k
			}
			continue
		}
		if start >= 0 {
			if c.spacePend && c.inLine {
				c.out.WriteByte(' ')
			}
			c.write(s[start:k])
			start = -1
			c.spacePend = false
		}
		if k < len(s) {
			c.spacePend = true
		}
	}
}

// write appends text that belongs on the current line.
func (c *htmlConv) write(s string) {
	if s == "" {
		return
	}
	c.out.WriteString(s)
	c.inLine = true
}

func isHTMLSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f'
}

// scanTag reads the tag starting at src[i] == '<'. It returns the lower-case
// tag name, the index after the closing '>' (or len(src) when the tag is not
// closed, as a browser drops an unfinished tag), whether it is an end tag,
// and false when src[i] does not start a tag (so '<' is text).
func scanTag(src, lower string, i int) (name string, end int, closing, ok bool) {
	j := i + 1
	if j < len(src) && src[j] == '/' {
		closing = true
		j++
	}
	k := j
	for k < len(lower) && (isASCIILetter(lower[k]) || (k > j && (isDigit(lower[k]) || lower[k] == '-' || lower[k] == ':'))) {
		k++
	}
	if k == j {
		return "", 0, false, false
	}
	name = lower[j:k]
	// Attributes: skip to the first '>' outside quotes.
	var quote byte
	for ; k < len(src); k++ {
		b := src[k]
		switch {
		case quote != 0:
			if b == quote {
				quote = 0
			}
		case b == '"' || b == '\'':
			// Only a quote that opens an attribute value counts.
			if k > 0 && (src[k-1] == '=' || isHTMLSpace(src[k-1])) {
				quote = b
			}
		case b == '>':
			return name, k + 1, closing, true
		}
	}
	return name, len(src), closing, true
}

// skipPast returns the index after the first occurrence of sep in s at or
// after from, or len(s).
func skipPast(s string, from int, sep string) int {
	if from >= len(s) {
		return len(s)
	}
	j := strings.Index(s[from:], sep)
	if j < 0 {
		return len(s)
	}
	return from + j + len(sep)
}

// asciiLower lower-cases ASCII letters only, so byte offsets are kept.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
