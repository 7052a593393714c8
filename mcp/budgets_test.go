package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNotifyBudgetWaitsPastItsBurst(t *testing.T) {
	defer func(b, r int) { notifyBurstBytes, notifyBytesPerSecond = b, r }(notifyBurstBytes, notifyBytesPerSecond)
	notifyBurstBytes, notifyBytesPerSecond = 1000, 100
	var b notifyBudget
	t0 := time.Unix(1000, 0)
	assert.Zero(t, b.take(600, t0), "within the burst")
	assert.Zero(t, b.take(400, t0), "the burst, exactly")
	assert.Equal(t, 2*time.Second, b.take(200, t0), "200 bytes past it at 100 bytes/s")
	assert.Equal(t, time.Second, b.take(0, t0.Add(time.Second)), "the debt refills at the rate")
	assert.Zero(t, b.take(100, t0.Add(4*time.Second)), "paid off, and 100 bytes more refilled")
	assert.Zero(t, b.take(900, t0.Add(time.Hour)), "the bucket never holds more than the burst")
	assert.Equal(t, time.Second, b.take(200, t0.Add(time.Hour)))
}

func TestRefreshBudget(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, tc := range []struct {
		name string
		took time.Duration
		want time.Duration // after the start
	}{
		{"a quick refresh waits the minimum interval", 10 * time.Millisecond, listChangedMinInterval},
		{"a slow one waits four times its duration", time.Second, 5 * time.Second},
		{"at most the maximum wait", time.Minute, time.Minute + listChangedMaxWait},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, t0.Add(tc.want), refreshBudget(t0, t0.Add(tc.took)))
		})
	}
}

func TestListChangedStormIsCoalescedAndSpaced(t *testing.T) {
	defer func(d time.Duration) { listChangedMinInterval = d }(listChangedMinInterval)
	listChangedMinInterval = 400 * time.Millisecond
	n := newNotifier(t, toolJSON("a"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log changeLog
	followed(t, p, n, &log, true)
	waitUntil(t, "the standalone stream opens", func() bool { return n.getOpen.Load() == 1 })
	n.push <- event(methodToolsListChanged, nil)
	log.wait(t, 1)
	lists := n.lists.Load()
	for i := 0; i < 5; i++ {
		n.push <- event(methodToolsListChanged, nil)
	}
	log.wait(t, 2)
	s := p.Stats()
	assert.Equal(t, lists+1, n.lists.Load(), "five notifications after a refresh make one more")
	assert.GreaterOrEqual(t, s.RefreshesCoalesced, int64(4))
	assert.GreaterOrEqual(t, s.RefreshesDelayed, int64(1), "the second refresh waited for the spacing")
}

func TestRefreshReusesUnchangedTools(t *testing.T) {
	n := newNotifier(t, toolJSON("a"), toolJSON("b"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log changeLog
	m := followed(t, p, n, &log, true)
	waitUntil(t, "the standalone stream opens", func() bool { return n.getOpen.Load() == 1 })
	a, _ := m.Get("mcp__nf__a")
	n.setTools(toolJSON("a"), toolDesc("b", "b, changed"))
	n.push <- event(methodToolsListChanged, nil)
	ev := log.wait(t, 1)[0]
	require.Nil(t, ev.Error)
	assert.Equal(t, []string{"mcp__nf__b"}, ev.Changed)
	assert.EqualValues(t, 1, p.Stats().ToolsReused, "a: sent again byte for byte")
	same, _ := m.Get("mcp__nf__a")
	assert.Same(t, a, same)
}

func TestRefreshRefusesATwiceAdvertisedReusedTool(t *testing.T) {
	n := newNotifier(t, toolJSON("a"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log changeLog
	m := followed(t, p, n, &log, true)
	waitUntil(t, "the standalone stream opens", func() bool { return n.getOpen.Load() == 1 })
	n.setTools(toolJSON("a"), toolJSON("a"))
	n.push <- event(methodToolsListChanged, nil)
	ev := log.wait(t, 1)[0]
	require.NotNil(t, ev.Error, "a reused descriptor is still checked for its name")
	assert.Contains(t, m.Names(), "mcp__nf__a")
}

func TestPacerPausesAfterItsSlice(t *testing.T) {
	defer func(s, p time.Duration) { paceSlice, pacePause = s, p }(paceSlice, pacePause)
	paceSlice, pacePause = 50*time.Millisecond, time.Microsecond
	before := paceClock.pauses.Load()
	p := newPacer()
	p.step()
	assert.Equal(t, before, paceClock.pauses.Load(), "a run that has just begun does not pause")
	time.Sleep(60 * time.Millisecond) // work longer than the slice
	p.step()
	assert.Equal(t, before+1, paceClock.pauses.Load())
	assert.Positive(t, p.paused)
	p.step()
	assert.Equal(t, before+1, paceClock.pauses.Load(), "a new slice after the pause")
}
