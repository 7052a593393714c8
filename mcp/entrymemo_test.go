package mcp

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

func memoFixture() (*Pool, *ServerConfig, *Security, *entrySlot, *entry) {
	p := NewPool(nil)
	cfg := &ServerConfig{Name: "s", URL: "https://mcp.example.com/mcp", Transport: TransportStreamableHTTP, Headers: map[string]string{"X-Key": "v"}}
	sec := &Security{URLAllowlist: []string{"https://mcp.example.com/"}, TimeoutMs: 1000}
	var slot entrySlot
	e := p.entryFor(cfg, sec.withDefaults())
	m := newEntryMemo(e, cfg, sec)
	slot.Store(m)
	return p, cfg, sec, &slot, e
}

// TestEntryMemoTakesTheSameEntry: a call with the config and policy
// unchanged takes the entry the key leads to, without a key.
func TestEntryMemoTakesTheSameEntry(t *testing.T) {
	p, cfg, sec, slot, e := memoFixture()
	require.Same(t, e, memoEntry(slot, cfg, sec))
	require.Same(t, p.entryFor(cfg, sec.withDefaults()), memoEntry(slot, cfg, sec))
	require.Nil(t, memoEntry(nil, cfg, sec), "no slot remembers nothing")
}

// TestEntryMemoRefusesChangedValues: a config or policy changed in place
// (each field of Security, each key field of the config) or a closed entry
// is not taken from the memo; the key is computed again.
func TestEntryMemoRefusesChangedValues(t *testing.T) {
	v := reflect.ValueOf(&Security{}).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		t.Run("security."+f.Name, func(t *testing.T) {
			_, cfg, sec, slot, _ := memoFixture()
			fv := reflect.ValueOf(sec).Elem().Field(i)
			switch fv.Kind() {
			case reflect.Bool:
				fv.SetBool(!fv.Bool())
			case reflect.Int:
				fv.SetInt(fv.Int() + 1)
			case reflect.Slice:
				if fv.Len() > 0 {
					fv.Index(0).SetString("https://other.example.com/") // changed in place, same length
				} else {
					fv.Set(reflect.ValueOf([]string{}))
				}
			default:
				t.Fatalf("Security.%s has kind %s: entryMemo.holds must compare it", f.Name, fv.Kind())
			}
			require.Nil(t, memoEntry(slot, cfg, sec), "got the memo after Security.%s changed", f.Name)
		})
	}
	changes := map[string]func(*ServerConfig, **Security){
		"name":       func(c *ServerConfig, _ **Security) { c.Name = "t" },
		"url":        func(c *ServerConfig, _ **Security) { c.URL += "2" },
		"transport":  func(c *ServerConfig, _ **Security) { c.Transport = TransportSSE },
		"version":    func(c *ServerConfig, _ **Security) { c.ProtocolVersion = ProtocolModern },
		"header":     func(c *ServerConfig, _ **Security) { c.Headers["X-Key"] = "w" },
		"headers":    func(c *ServerConfig, _ **Security) { c.Headers = nil },
		"hooks":      func(c *ServerConfig, _ **Security) { c.hooks = &ClientHooks{Roots: &Hook{ID: "1"}} },
		"nil policy": func(_ *ServerConfig, s **Security) { *s = nil },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			_, cfg, sec, slot, _ := memoFixture()
			change(cfg, &sec)
			require.Nil(t, memoEntry(slot, cfg, sec), "got the memo after the %s changed", name)
		})
	}
	t.Run("cleanup", func(t *testing.T) {
		p, cfg, sec, slot, _ := memoFixture()
		require.NoError(t, p.Cleanup(t.Context()))
		require.Nil(t, memoEntry(slot, cfg, sec), "got a closed entry")
	})
}
