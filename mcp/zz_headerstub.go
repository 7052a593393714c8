package mcp

import "encoding/base64"

// encodeHeaderValue is a stand-in until mcpheader.go lands (docs/mcp-headers.md).
func encodeHeaderValue(s string) string {
	safe := s != "" && s[0] != ' ' && s[0] != '\t' && s[len(s)-1] != ' ' && s[len(s)-1] != '\t'
	for i := 0; i < len(s) && safe; i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c > 0x7e {
			safe = false
		}
	}
	if safe && !(len(s) >= 11 && s[:9] == "=?base64?" && s[len(s)-2:] == "?=") {
		return s
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}
