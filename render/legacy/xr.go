package legacy

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/render"
)

// Event and condition reasons the reconciler uses.
const (
	reasonCompose = "ComposeResources"
	reasonPublish = "PublishConnectionSecret"
	reasonPaused  = "ReconciliationPaused"

	reasonReconcilePaused = "ReconcilePaused"
)

// LastTransitionTime is the fixed time every condition carries, as in
// `crossplane render` output.
const LastTransitionTime = "2024-01-01T00:00:00Z"

// secretRef is a SecretReference.
type secretRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// key returns the ConnectionSecrets key of the Secret.
func (r secretRef) key() string { return r.Namespace + "/" + r.Name }

// writeConnectionSecretToRef reads spec.writeConnectionSecretToRef as
// crossplane-runtime does: present and decodable means set.
func writeConnectionSecretToRef(o map[string]any) *secretRef {
	spec, ok := o["spec"].(map[string]any)
	if !ok {
		// Absent, null or not an object: GetValue finds nothing.
		return nil
	}
	v, ok := spec["writeConnectionSecretToRef"]
	if !ok {
		return nil
	}
	if r, ok := plainSecretRef(v); ok {
		return r
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	out := &secretRef{}
	if err := json.Unmarshal(b, out); err != nil {
		return nil
	}
	return out
}

// plainSecretRef reads the common form of a reference, an object of
// UTF-8 strings under the keys name and namespace only, as the JSON round
// trip would. Anything else reports false.
func plainSecretRef(v any) (*secretRef, bool) {
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		return nil, false
	}
	out := &secretRef{}
	for k, e := range m {
		s, ok := e.(string)
		if !ok || !utf8.ValidString(s) {
			return nil, false
		}
		switch k {
		case "name":
			out.Name = s
		case "namespace":
			out.Namespace = s
		default:
			return nil, false
		}
	}
	return out, true
}

func isPaused(xr map[string]any) bool {
	u := &unstructured.Unstructured{Object: xr}
	return u.GetAnnotations()[xp.AnnotationPaused] == "true"
}

// update models a full update (PUT) of the XR: spec and metadata are
// persisted, status is not (it is a subresource), and the response
// replaces the in-memory XR, so pending status edits are lost.
func (c *composer) update() {
	xr := c.xr.UnstructuredContent()
	next := jsonobj.DeepCopy(withoutStatus(xr))
	setOrDelete(next, "status", c.stored["status"])
	c.stored = next
	// The in-memory XR is the composer's own: give it the response's
	// status (its spec and metadata are what was sent).
	setOrDelete(xr, "status", jsonobj.DeepCopyValue(next["status"]))
}

// updateStatus models a status update: only status is persisted.
func (c *composer) updateStatus() {
	setOrDelete(c.stored, "status", jsonobj.DeepCopyValue(c.xr.UnstructuredContent()["status"]))
}

func setOrDelete(m map[string]any, k string, v any) {
	if v == nil {
		delete(m, k)
		return
	}
	m[k] = v
}

// configure runs the naming configurator and the API configurator, each
// persisting the XR with an update (docs/semantics/legacy.md#before-composing step 6). The external secret
// store configurator (alpha) is not modelled.
func (c *composer) configure() error {
	u := &unstructured.Unstructured{Object: c.xr.UnstructuredContent()}
	if u.GetLabels()[xp.LabelComposite] == "" {
		labels := u.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[xp.LabelComposite] = u.GetName()
		u.SetLabels(labels)
		c.configured.label = true
		c.update()
	}

	u = &unstructured.Unstructured{Object: c.xr.UnstructuredContent()}
	ref := c.comp.Spec.CompositeTypeRef
	if ref.APIVersion != u.GetAPIVersion() || ref.Kind != u.GetKind() {
		return errors.New("referenced composition is not compatible with this composite resource")
	}
	ns := c.comp.Spec.WriteConnectionSecretsToNamespace
	if writeConnectionSecretToRef(u.Object) != nil || ns == nil {
		return nil
	}
	if err := c.xr.SetValue("spec.writeConnectionSecretToRef", secretRef{Name: string(u.GetUID()), Namespace: *ns}); err != nil {
		return &ApplyError{Err: err}
	}
	c.configured.secretRef = true
	c.update()
	return nil
}

// A condition is a status condition as it is printed.
type condition struct {
	Type, Status, Reason, Message string
}

func (cd condition) object() map[string]any {
	o := map[string]any{
		"type":               cd.Type,
		"status":             cd.Status,
		"reason":             cd.Reason,
		"lastTransitionTime": LastTransitionTime,
	}
	if cd.Message != "" {
		o["message"] = cd.Message
	}
	return o
}

// setConditions sets conditions on the in-memory XR as crossplane-runtime
// does: a condition replaces the one of the same type in place, or is
// appended.
func (c *composer) setConditions(cs ...condition) {
	o := c.xr.UnstructuredContent()
	status, _ := o["status"].(map[string]any)
	if status == nil {
		status = map[string]any{}
	}
	list, _ := status["conditions"].([]any)
	for _, cd := range cs {
		found := false
		for i, e := range list {
			if m, ok := e.(map[string]any); ok && m["type"] == cd.Type {
				list[i] = cd.object()
				found = true
			}
		}
		if !found {
			list = append(list, cd.object())
		}
	}
	status["conditions"] = list
	o["status"] = status
}

// fail ends the reconcile with a fatal error: a Warning event, Synced=False
// with the error's text, Ready untouched, and a status update. The
// composer's own events are lost, as upstream returns no result with the
// error.
func (c *composer) fail(err error) (*render.Outcome, error) {
	c.setConditions(condition{Type: render.ConditionTypeSynced, Status: "False", Reason: render.ReasonReconcileError, Message: err.Error()})
	c.updateStatus()
	out := c.outcome()
	out.Events = []render.Event{{Type: render.EventWarning, Reason: reasonCompose, Message: err.Error()}}
	return out, err
}

// paused ends the reconcile of a paused XR.
func (c *composer) paused() *render.Outcome {
	c.setConditions(condition{Type: render.ConditionTypeSynced, Status: "False", Reason: reasonReconcilePaused,
		Message: "Reconciliation (including deletion) is paused via the pause annotation"})
	c.updateStatus()
	out := c.outcome()
	out.Events = []render.Event{{Type: render.EventNormal, Reason: reasonPaused, Message: "Reconciliation is paused via the pause annotation"}}
	return out
}

// succeed publishes the connection details, sets the conditions from the
// composed resources' results and updates the status (docs/semantics/legacy.md#publishing-connection-details, docs/semantics/legacy.md#xr-conditions).
func (c *composer) succeed(conn map[string][]byte) *render.Outcome {
	var events []render.Event
	published := c.filterConnectionDetails(conn)
	if ref := writeConnectionSecretToRef(c.xr.UnstructuredContent()); ref != nil {
		if current, ok := c.opts.ConnectionSecrets[ref.key()]; !ok || !equalData(current, published) {
			_ = c.xr.SetValue("status.connectionDetails.lastPublishedTime", LastTransitionTime)
			events = append(events, render.Event{Type: render.EventNormal, Reason: reasonPublish, Message: "Successfully published connection details"})
		}
	}
	events = append(events, c.events...)

	var unsynced, unready []string
	for _, cs := range c.composed {
		if !cs.synced {
			unsynced = append(unsynced, cs.name)
			events = append(events, render.Event{Type: render.EventNormal, Reason: reasonCompose, Message: "Composed resource \"" + cs.name + "\" is not yet valid"})
		}
		if !cs.ready {
			unready = append(unready, cs.name)
			events = append(events, render.Event{Type: render.EventNormal, Reason: reasonCompose, Message: "Composed resource \"" + cs.name + "\" is not yet ready"})
		}
	}

	synced := condition{Type: render.ConditionTypeSynced, Status: "True", Reason: render.ReasonReconcileSuccess}
	if len(unsynced) > 0 {
		prefix := "Unsynced resources: "
		if c.target == TargetV117 {
			prefix = "Invalid resources: "
		}
		synced = condition{Type: render.ConditionTypeSynced, Status: "False", Reason: render.ReasonReconcileError, Message: prefix + nameList(unsynced)}
	}
	ready := condition{Type: render.ConditionTypeReady, Status: "True", Reason: render.ReasonAvailable}
	if len(unready) > 0 {
		ready = condition{Type: render.ConditionTypeReady, Status: "False", Reason: render.ReasonCreating, Message: "Unready resources: " + nameList(unready)}
	}
	c.setConditions(synced, ready)
	c.updateStatus()

	out := c.outcome()
	out.Events = events
	out.ConnectionDetails = published
	return out
}

// nameList formats names as Crossplane's condition messages do: sorted as
// strings, at most three shown.
func nameList(names []string) string {
	s := append([]string(nil), names...)
	sort.Strings(s)
	const n = 3
	switch {
	case len(s) > n:
		return strings.Join(s[:n], ", ") + ", and " + strconv.Itoa(len(s)-n) + " more"
	case len(s) == n:
		return strings.Join(s[:n-1], ", ") + ", and " + s[n-1]
	default:
		return strings.Join(s, ", ")
	}
}

// filterConnectionDetails keeps the keys the XRD publishes.
func (c *composer) filterConnectionDetails(conn map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(conn))
	for k, v := range conn {
		if len(c.opts.ConnectionSecretKeys) == 0 || slices.Contains(c.opts.ConnectionSecretKeys, k) {
			out[k] = v
		}
	}
	return out
}

// equalData compares Secret data as the publisher does: nil and empty are
// equal.
func equalData(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || string(v) != string(w) {
			return false
		}
	}
	return true
}

// outcome assembles what the reconcile left.
func (c *composer) outcome() *render.Outcome {
	out := &render.Outcome{
		XR: c.printedXR(),
		// The reconcile is over: the outcome takes the stored XR, which
		// nothing else holds (printedXR copies what it takes).
		EffectiveXR: c.stored,
		Composed:    make([]render.ComposedResource, 0, len(c.composed)),
		Deleted:     c.deleted,
	}
	for _, cs := range c.composed {
		out.Composed = append(out.Composed, cs.result())
	}
	return out
}

// printedXR is the XR as `crossplane render` prints one: apiVersion, kind,
// metadata.name, the spec and metadata fields that patches changed, and the
// persisted status with its conditions. Crossplane's bookkeeping
// (spec.resourceRefs, spec.environmentConfigRefs, and the
// crossplane.io/composite label and spec.writeConnectionSecretToRef when
// the configurators set them) and status.connectionDetails (the
// publication time) are left to EffectiveXR.
func (c *composer) printedXR() map[string]any {
	u := &unstructured.Unstructured{Object: c.stored}
	out := map[string]any{
		"apiVersion": u.GetAPIVersion(),
		"kind":       u.GetKind(),
	}

	md := changes(jsonobj.Map(c.input, "metadata"), jsonobj.Map(c.stored, "metadata"))
	if c.configured.label {
		if l, ok := md["labels"].(map[string]any); ok {
			delete(l, xp.LabelComposite)
			if len(l) == 0 {
				delete(md, "labels")
			}
		}
	}
	md["name"] = u.GetName()
	out["metadata"] = md

	spec := changes(jsonobj.Map(c.input, "spec"), jsonobj.Map(c.stored, "spec"))
	delete(spec, "resourceRefs")
	delete(spec, "environmentConfigRefs")
	if c.configured.secretRef {
		delete(spec, "writeConnectionSecretToRef")
	}
	if len(spec) > 0 {
		out["spec"] = spec
	}

	if status, ok := jsonobj.DeepCopyValue(c.stored["status"]).(map[string]any); ok {
		delete(status, "connectionDetails")
		if len(status) > 0 {
			out["status"] = status
		}
	}
	return out
}

// changes returns the parts of after that differ from before: keys whose
// values differ, recursing into objects. Keys removed are not reported.
func changes(before, after map[string]any) map[string]any {
	out := map[string]any{}
	for k, a := range after {
		b, ok := before[k]
		if !ok {
			out[k] = jsonobj.DeepCopyValue(a)
			continue
		}
		am, aok := a.(map[string]any)
		bm, bok := b.(map[string]any)
		if aok && bok {
			if d := changes(bm, am); len(d) > 0 {
				out[k] = d
			}
			continue
		}
		if !reflect.DeepEqual(a, b) {
			out[k] = jsonobj.DeepCopyValue(a)
		}
	}
	return out
}
