package jsontext

import "testing"

func TestChoice(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   string
	}{
		{nil, ""},
		{[]string{"a"}, `"a"`},
		{[]string{"lionagi", "full"}, `"lionagi" or "full"`},
		{[]string{"a", "b", "c"}, `"a", "b" or "c"`},
	} {
		if got := Choice(tc.values); got != tc.want {
			t.Errorf("Choice(%q): got %s, want %s", tc.values, got, tc.want)
		}
	}
}
