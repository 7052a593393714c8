package jsontext

import (
	"strconv"
	"strings"
)

// Choice writes a closed set of string values as a message names them:
// "a", "b" or "c" (each quoted as Go quotes it; one value alone, "" for
// none). Messages that list the accepted values build them from the Go list
// with it, so each list is spelled once.
func Choice[S ~string](values []S) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(string(v))
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
