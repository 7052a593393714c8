package mcp

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// A refresh after notifications/tools/list_changed goes through the
// registration's own options: its filter keeps blocked tools out of the new
// set as it did at registration.
func TestListChangedRefreshKeepsTheFilter(t *testing.T) {
	n := newNotifier(t, toolJSON("read_a"), toolJSON("delete_a"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log changeLog
	m := core.NewManager(nil)
	defer runtime.KeepAlive(m) // followed weakly: held until the end
	o := &RegisterOptions{Security: loopback(), OnToolsChanged: log.add, Filter: &Filter{Block: []string{"delete_*"}}}
	names, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "nf", URL: n.url}, o)
	require.NoError(t, err)
	require.Equal(t, []string{"mcp__nf__read_a"}, names)
	waitUntil(t, "the standalone stream opens", func() bool { return n.getOpen.Load() == 1 })

	n.setTools(toolJSON("read_a"), toolJSON("read_b"), toolJSON("delete_b"))
	n.push <- event(methodToolsListChanged, nil)
	ev := log.wait(t, 1)[0]
	require.Nil(t, ev.Error)
	assert.Equal(t, []string{"mcp__nf__read_b"}, ev.Added, "the blocked delete_b is not added")
	assert.Equal(t, []string{"mcp__nf__read_a", "mcp__nf__read_b"}, m.Names())
}

// One standalone GET stream serves a connection whose registration has both
// client hooks and an OnToolsChanged listener, and list changes still
// refresh through it.
func TestOneStandaloneStreamForHooksAndListChanges(t *testing.T) {
	n := newNotifier(t, toolJSON("a"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log changeLog
	m := core.NewManager(nil)
	defer runtime.KeepAlive(m) // followed weakly: held until the end
	o := &RegisterOptions{Security: loopback(), OnToolsChanged: log.add,
		Hooks: &ClientHooks{Roots: RootList([]Root{{URI: "file:///work"}})}}
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "nf", URL: n.url}, o)
	require.NoError(t, err)
	waitUntil(t, "the standalone stream opens", func() bool { return n.getOpen.Load() == 1 })
	n.setTools(toolJSON("a"), toolJSON("b"))
	n.push <- event(methodToolsListChanged, nil)
	ev := log.wait(t, 1)[0]
	require.Nil(t, ev.Error)
	assert.Equal(t, []string{"mcp__nf__b"}, ev.Added)
	assert.Equal(t, int32(1), n.gets.Load(), "one GET stream for hooks and list changes")
}
