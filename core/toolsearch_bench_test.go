package core

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkSearchTools10k is one query over 10,000 deferred tools, the index built once.
func BenchmarkSearchTools10k(b *testing.B) {
	m := NewManager(nil)
	names := make([]string, 0, 10000)
	for i := range 10000 {
		name := fmt.Sprintf("weather_tool_%d", i)
		t, err := NewTool(HandlerFunc(name, func(context.Context, *Arguments) (any, error) { return nil, nil }), &ToolOptions{Name: name, Description: fmt.Sprintf("Handles weather requests for region %d, batch %d.", i%13, i%97),
			Parameters: json.RawMessage(`{"type":"object","properties":{"weatherId":{"type":"string"},"region":{"type":"integer"}}}`)})
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Register(t, false); err != nil {
			b.Fatal(err)
		}
		names = append(names, name)
	}
	m.Defer(DeferOptions{Names: names})
	b.Run("build", func(b *testing.B) {
		for range b.N {
			m.Defer(DeferOptions{Names: names[:1]})
			if _, err := m.SearchTools("weather region 7", 5, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cold", func(b *testing.B) {
		for range b.N {
			m.defers.index = nil
			m.Defer(DeferOptions{Names: names[:1]})
			if _, err := m.SearchTools("weather region 7", 5, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("query", func(b *testing.B) {
		for range b.N {
			if _, err := m.SearchTools("weather region 7", 5, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}
