package pipeline

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/render"
)

// A Target says where a result's event or a condition goes.
type Target string

// Targets.
const (
	TargetComposite         Target = "Composite"
	TargetCompositeAndClaim Target = "CompositeAndClaim"
)

func targetOf(t *fnv1.Target) Target {
	if t != nil && *t == fnv1.Target_TARGET_COMPOSITE_AND_CLAIM {
		return TargetCompositeAndClaim
	}
	return TargetComposite
}

// A Condition is a custom condition a function asked to set on the XR.
type Condition struct {
	Type    string
	Status  string // True, False or Unknown
	Reason  string
	Message string
	Target  Target
}

func conditionFrom(c *fnv1.Condition) Condition {
	s := "Unknown"
	switch c.GetStatus() {
	case fnv1.Status_STATUS_CONDITION_TRUE:
		s = "True"
	case fnv1.Status_STATUS_CONDITION_FALSE:
		s = "False"
	case fnv1.Status_STATUS_CONDITION_UNKNOWN, fnv1.Status_STATUS_CONDITION_UNSPECIFIED:
	}
	return Condition{Type: c.GetType(), Status: s, Reason: c.GetReason(), Message: c.GetMessage(), Target: targetOf(c.Target)}
}

// A TargetedEvent is an event with the detail and target Crossplane keeps
// apart from the message. render.Event holds the message as recorded on the
// XR, detail included.
type TargetedEvent struct {
	Type    string
	Reason  string
	Message string
	Detail  string
	Target  Target
}

// AsEvent returns the event as recorded on the XR: the detail, if any,
// prefixes the message.
func (e TargetedEvent) AsEvent() render.Event {
	msg := e.Message
	if e.Detail != "" {
		msg = e.Detail + ": " + msg
	}
	return render.Event{Type: e.Type, Reason: e.Reason, Message: msg}
}

// System condition types functions may not set.
func isSystemCondition(t string) bool {
	return t == render.ConditionTypeReady || t == render.ConditionTypeSynced || t == "Healthy"
}

// xpCondition is a condition as crossplane-runtime's Condition type holds
// it. Writing one back to an object normalises it: unknown keys are dropped,
// message and observedGeneration are omitted when empty, and a missing
// lastTransitionTime becomes null.
type xpCondition struct {
	Type               string
	Status             string
	LastTransitionTime string // RFC 3339, or "" for null
	Reason             string
	Message            string
	ObservedGeneration int64
}

func newCondition(typ, status, reason, message string, at time.Time) xpCondition {
	return xpCondition{Type: typ, Status: status, Reason: reason, Message: message, LastTransitionTime: at.UTC().Format(time.RFC3339)}
}

// equal ignores the transition time, as crossplane-runtime does.
func (c xpCondition) equal(o xpCondition) bool {
	return c.Type == o.Type && c.Status == o.Status && c.Reason == o.Reason && c.Message == o.Message && c.ObservedGeneration == o.ObservedGeneration
}

func (c xpCondition) object() map[string]any {
	m := map[string]any{"type": c.Type, "status": c.Status, "reason": c.Reason, "lastTransitionTime": nil}
	if c.LastTransitionTime != "" {
		m["lastTransitionTime"] = c.LastTransitionTime
	}
	if c.Message != "" {
		m["message"] = c.Message
	}
	if c.ObservedGeneration != 0 {
		m["observedGeneration"] = float64(c.ObservedGeneration)
	}
	return m
}

// getConditions reads status.conditions the way crossplane-runtime decodes
// them into its Condition type with encoding/json, errors ignored: a value
// of the wrong type decodes as the zero value and decoding goes on, but a
// lastTransitionTime that is not an RFC 3339 string or null stops it, leaving
// a zero condition in its place and none after it.
func getConditions(obj map[string]any) []xpCondition {
	list, ok := jsonobj.Map(obj, "status")["conditions"].([]any)
	if !ok {
		return nil
	}
	out := make([]xpCondition, 0, len(list))
	for _, e := range list {
		c, ok := decodeCondition(e)
		out = append(out, c)
		if !ok {
			break
		}
	}
	return out
}

// decodeCondition decodes one condition; false means decoding stopped.
func decodeCondition(v any) (xpCondition, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return xpCondition{}, true
	}
	var c xpCondition
	// encoding/json meets the keys in sorted order, lastTransitionTime first.
	switch t := m["lastTransitionTime"].(type) {
	case nil:
	case string:
		at, err := time.Parse(time.RFC3339, t)
		if err != nil {
			return xpCondition{}, false
		}
		c.LastTransitionTime = at.UTC().Format(time.RFC3339)
	default:
		return xpCondition{}, false
	}
	c.Type, _ = m["type"].(string)
	c.Status, _ = m["status"].(string)
	c.Reason, _ = m["reason"].(string)
	c.Message, _ = m["message"].(string)
	switch g := m["observedGeneration"].(type) {
	case float64:
		if g == math.Trunc(g) && math.Abs(g) <= math.MaxInt64 {
			c.ObservedGeneration = int64(g)
		}
	case int64:
		c.ObservedGeneration = g
	case int:
		c.ObservedGeneration = int64(g)
	}
	return c, true
}

// setConditions sets conditions on obj with crossplane-runtime's semantics:
// a condition replaces the one of the same type in place unless the two are
// equal (then the old one, with its time, stays); a new type is appended.
func setConditions(obj map[string]any, cs ...xpCondition) {
	if st, ok := obj["status"]; ok && st != nil {
		if _, ok := st.(map[string]any); !ok {
			// The status cannot hold conditions; crossplane-runtime's write
			// fails and is ignored.
			return
		}
	}
	cur := getConditions(obj)
	for _, n := range cs {
		exists := false
		for i := range cur {
			if cur[i].Type != n.Type {
				continue
			}
			exists = true
			if !cur[i].equal(n) {
				cur[i] = n
			}
		}
		if !exists {
			cur = append(cur, n)
		}
	}
	setNested(obj, objects(cur), "status", "conditions")
}

// stableNAndSomeMore formats names as Crossplane's condition messages do:
// sorted; "a", "a, b", "a, b, and c", or "a, b, c, and N more".
func stableNAndSomeMore(names []string) string {
	const n = 3
	s := append([]string(nil), names...)
	sort.Strings(s)
	switch {
	case len(s) > n:
		return fmt.Sprintf("%s, and %d more", strings.Join(s[:n], ", "), len(s)-n)
	case len(s) == n:
		return fmt.Sprintf("%s, and %s", strings.Join(s[:n-1], ", "), s[n-1])
	default:
		return strings.Join(s, ", ")
	}
}

// readyCondition is the XR's Ready condition: Available when nothing is
// unready, else Creating with the unready names.
func readyCondition(unready []string, at time.Time) xpCondition {
	if len(unready) == 0 {
		return newCondition(render.ConditionTypeReady, "True", render.ReasonAvailable, "", at)
	}
	return newCondition(render.ConditionTypeReady, "False", render.ReasonCreating, "Unready resources: "+stableNAndSomeMore(unready), at)
}
