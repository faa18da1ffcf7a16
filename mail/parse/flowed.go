package parse

import "strings"

// unflow undoes format=flowed (RFC 3676) on text whose lines end in "\n":
// a line ending in a space is soft-broken and joins the next line of the
// same quote depth; one leading space after the quote marks is
// space-stuffing and is removed; with delSp (DelSp=yes) the trailing space
// of a soft-broken line was added by the sender and is dropped too. The
// signature separator "-- " is never soft-broken. Quoted lines come back as
// '>' marks, a space, and the joined text, so quote detection still works.
func unflow(text string, delSp bool) string {
	lines := strings.Split(text, "\n")
	var out strings.Builder
	out.Grow(len(text))
	var para strings.Builder
	paraDepth := -1 // -1: no paragraph open
	flush := func() {
		if paraDepth < 0 {
			return
		}
		if paraDepth > 0 {
			out.WriteString(strings.Repeat(">", paraDepth))
			out.WriteByte(' ')
		}
		out.WriteString(para.String())
		out.WriteByte('\n')
		para.Reset()
		paraDepth = -1
	}
	for i, line := range lines {
		if i == len(lines)-1 && line == "" {
			break // the text's final line break
		}
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		content := strings.TrimPrefix(line[depth:], " ")
		if paraDepth >= 0 && (paraDepth != depth || content == "-- ") {
			// A soft break joins neither different quote depths nor
			// the signature separator.
			flush()
		}
		paraDepth = depth
		flowed := strings.HasSuffix(content, " ") && content != "-- "
		if flowed && delSp {
			content = content[:len(content)-1]
		}
		para.WriteString(content)
		if !flowed {
			flush()
		}
	}
	flush()
	return out.String()
}
