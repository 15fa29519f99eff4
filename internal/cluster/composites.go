package cluster

import (
	"context"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// A State says whether a referenced object could be read.
type State string

// The states of a referenced object.
const (
	// Found: the object was read.
	Found State = "Found"
	// NotFound: the API server has no such object.
	NotFound State = "NotFound"
	// Forbidden: reading it was forbidden; Reader.Missing names the
	// permission.
	Forbidden State = "Forbidden"
	// Unserved: the API server serves no such kind.
	Unserved State = "Unserved"
)

// A Secret is what a Reader keeps of a Secret: digests of its values.
type Secret struct {
	Namespace string
	Name      string
	State     State
	// Digests holds Reader.Digest of each value, by key.
	Digests map[string]string
}

// A Ref is an entry of an XR's spec.resourceRefs.
type Ref struct {
	APIVersion string
	Kind       string
	Name       string
}

// A Composed is one composed resource of an XR.
type Composed struct {
	Ref   Ref
	State State
	// Object is the live object (nil unless State is Found).
	Object *unstructured.Unstructured
	// ResourceName is its crossplane.io/composition-resource-name
	// annotation: the Composition template it was rendered from.
	ResourceName string
	// ConnectionSecret is the Secret its spec.writeConnectionSecretToRef
	// names, with Options.ConnectionSecrets.
	ConnectionSecret *Secret
}

// A Composite is an XR that runs a Composition, with what it refers to.
type Composite struct {
	XR *unstructured.Unstructured
	// ClaimState is empty when the XR has no spec.claimRef.
	ClaimState State
	Claim      *unstructured.Unstructured
	// RevisionName is spec.compositionRevisionRef.name; Revision is that
	// CompositionRevision when it could be read.
	RevisionName string
	Revision     *unstructured.Unstructured
	// Composed follows spec.resourceRefs, in its order.
	Composed []Composed
	// ConnectionSecret is the Secret the XR's spec.writeConnectionSecretToRef
	// names, with Options.ConnectionSecrets.
	ConnectionSecret *Secret
}

// Runs reports whether xr runs the Composition comp: its
// spec.compositionRef names comp or, before Crossplane has selected one, its
// spec.compositionSelector matches comp's labels. The XR's kind is not
// checked.
func Runs(comp, xr *unstructured.Unstructured) bool {
	if ref, ok, _ := unstructured.NestedString(xr.Object, "spec", "compositionRef", "name"); ok {
		return ref == comp.GetName()
	}
	sel, ok, _ := unstructured.NestedStringMap(xr.Object, "spec", "compositionSelector", "matchLabels")
	if !ok {
		return false
	}
	labels := comp.GetLabels()
	for k, v := range sel {
		if l, ok := labels[k]; !ok || l != v {
			return false
		}
	}
	return true
}

// CompositeKind is the XR kind comp composes (spec.compositeTypeRef).
func CompositeKind(comp *unstructured.Unstructured) (schema.GroupVersionKind, error) {
	av, _, _ := unstructured.NestedString(comp.Object, "spec", "compositeTypeRef", "apiVersion")
	kind, _, _ := unstructured.NestedString(comp.Object, "spec", "compositeTypeRef", "kind")
	if av == "" || kind == "" {
		return schema.GroupVersionKind{}, errors.Errorf("composition %q has no spec.compositeTypeRef", comp.GetName())
	}
	gv, err := schema.ParseGroupVersion(av)
	if err != nil {
		return schema.GroupVersionKind{}, errors.Wrapf(err, "cannot parse the compositeTypeRef of composition %q", comp.GetName())
	}
	return gv.WithKind(kind), nil
}

// Composites streams the XRs that run comp (Runs) to fn, in list order,
// each with its claim, CompositionRevision, composed resources and, with
// Options.ConnectionSecrets, connection Secrets. XRs are listed page by page
// and fetched Options.Concurrency at a time. A forbidden request is
// recorded (Missing) and the XR is handed over with what could be read; an
// XR kind the API server does not serve yields no XR. An error of fn stops
// the stream and is returned.
func (r *Reader) Composites(ctx context.Context, comp *unstructured.Unstructured, fn func(*Composite) error) error {
	gvk, err := CompositeKind(comp)
	if err != nil {
		return err
	}
	m, err := r.mapping(gvk)
	if errors.Is(err, errUnserved) {
		return nil
	}
	if err != nil {
		return err
	}
	revisions, err := r.CompositionRevisions(ctx, comp.GetName())
	if err != nil {
		return err
	}
	revs := make(map[string]*unstructured.Unstructured, len(revisions))
	for _, rev := range revisions {
		revs[rev.GetName()] = rev
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type result struct {
		c   *Composite
		err error
	}
	// window holds one channel per XR in flight, in list order; its capacity
	// bounds the XRs being fetched or waiting to be delivered.
	window := make(chan chan result, r.o.Concurrency)
	listErr := make(chan error, 1)
	go func() {
		defer close(window)
		listing := Listing{Composition: comp.GetName(), Total: -1}
		_, err := r.list(ctx, m, "", metav1.ListOptions{}, func(l *unstructured.UnstructuredList) error {
			items := l.Items
			if listing.Listed == 0 {
				if rest := l.GetRemainingItemCount(); rest != nil {
					listing.Total = len(items) + int(*rest)
				}
			}
			listing.Listed += len(items)
			if l.GetContinue() == "" {
				listing.Complete, listing.Total = true, listing.Listed
			}
			for i := range items {
				if xr := &items[i]; !Runs(comp, xr) || !r.inNamespace(xr) {
					listing.Skipped++
				}
			}
			if r.o.Listed != nil {
				r.o.Listed(listing)
			}
			for i := range items {
				xr := &items[i]
				if !Runs(comp, xr) || !r.inNamespace(xr) {
					continue
				}
				ch := make(chan result, 1)
				select {
				case window <- ch:
				case <-ctx.Done():
					return ctx.Err()
				}
				go func() {
					c, err := r.composite(ctx, xr, revs)
					ch <- result{c, err}
				}()
			}
			return nil
		})
		listErr <- err
	}()

	for ch := range window {
		res := <-ch
		if res.err != nil {
			cancel()
			drain(window)
			return res.err
		}
		if err := fn(res.c); err != nil {
			cancel()
			drain(window)
			return err
		}
	}
	return <-listErr
}

func drain[T any](ch chan chan T) {
	for c := range ch {
		<-c
	}
}

func (r *Reader) inNamespace(xr *unstructured.Unstructured) bool {
	if r.o.Namespace == "" {
		return true
	}
	ns, _, _ := unstructured.NestedString(xr.Object, "spec", "claimRef", "namespace")
	return ns == r.o.Namespace
}

// composite fetches what xr refers to, one request after the other.
func (r *Reader) composite(ctx context.Context, xr *unstructured.Unstructured, revs map[string]*unstructured.Unstructured) (*Composite, error) {
	c := &Composite{XR: xr}
	if ref, ok, _ := unstructured.NestedStringMap(xr.Object, "spec", "claimRef"); ok {
		u, state, err := r.getRef(ctx, ref["apiVersion"], ref["kind"], ref["namespace"], ref["name"])
		if err != nil {
			return nil, err
		}
		c.Claim, c.ClaimState = u, state
	}
	c.RevisionName, _, _ = unstructured.NestedString(xr.Object, "spec", "compositionRevisionRef", "name")
	if c.RevisionName != "" {
		c.Revision = revs[c.RevisionName]
		if c.Revision == nil {
			// Not labelled for this Composition, or the list was forbidden.
			u, _, err := r.getRef(ctx, xp.CompositionAPIVersion, "CompositionRevision", "", c.RevisionName)
			if err != nil {
				return nil, err
			}
			c.Revision = u
		}
	}
	refs, _, _ := unstructured.NestedSlice(xr.Object, "spec", "resourceRefs")
	for _, v := range refs {
		ref, _ := v.(map[string]any)
		cd := Composed{Ref: Ref{APIVersion: jsonobj.AsString(ref["apiVersion"]), Kind: jsonobj.AsString(ref["kind"]), Name: jsonobj.AsString(ref["name"])}}
		if cd.Ref.Name == "" {
			// Crossplane has not named it yet: nothing to read.
			cd.State = NotFound
			c.Composed = append(c.Composed, cd)
			continue
		}
		u, state, err := r.getRef(ctx, cd.Ref.APIVersion, cd.Ref.Kind, "", cd.Ref.Name)
		if err != nil {
			return nil, err
		}
		cd.Object, cd.State = u, state
		if u != nil {
			cd.ResourceName = u.GetAnnotations()[xp.AnnotationCompositionResourceName]
			if cd.ConnectionSecret, err = r.connectionSecret(ctx, u, u.GetNamespace()); err != nil {
				return nil, err
			}
		}
		c.Composed = append(c.Composed, cd)
	}
	var err error
	c.ConnectionSecret, err = r.connectionSecret(ctx, xr, "")
	return c, err
}

// connectionSecret reads the Secret u's spec.writeConnectionSecretToRef
// names (its namespace defaults to ns, as for a namespaced object).
func (r *Reader) connectionSecret(ctx context.Context, u *unstructured.Unstructured, ns string) (*Secret, error) {
	if !r.o.ConnectionSecrets {
		return nil, nil
	}
	ref, ok, _ := unstructured.NestedStringMap(u.Object, "spec", "writeConnectionSecretToRef")
	if !ok || ref["name"] == "" {
		return nil, nil
	}
	if ref["namespace"] != "" {
		ns = ref["namespace"]
	}
	return r.SecretDigests(ctx, ns, ref["name"])
}

// getRef reads the object an apiVersion, kind, namespace and name refer to.
func (r *Reader) getRef(ctx context.Context, apiVersion, kind, namespace, name string) (*unstructured.Unstructured, State, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, "", errors.Wrapf(err, "cannot parse apiVersion %q", apiVersion)
	}
	m, err := r.mapping(gv.WithKind(kind))
	if errors.Is(err, errUnserved) {
		return nil, Unserved, nil
	}
	if err != nil {
		return nil, "", err
	}
	if m.Scope.Name() != meta.RESTScopeNameNamespace {
		namespace = ""
	}
	return r.get(ctx, m, namespace, name)
}
