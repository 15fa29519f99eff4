package kubetest

import (
	"context"
	"embed"
	"path"
	"time"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/yaml"
)

// The Crossplane CRDs the suites install: v1.20.11's of the apiextensions
// group that xpmigrate reads, and v2.3.4's that the v2 platform xpmigrate
// emits is validated against (each directory's README.md names their
// source).
//
//go:embed testdata/crossplane-v1.20.11/*.yaml testdata/crossplane-v2.3.4/*.yaml
var crossplaneCRDs embed.FS

// CrossplaneV2Version is the Crossplane release CrossplaneV2CRDs come from.
const CrossplaneV2Version = "v2.3.4"

// CrossplaneCRDs returns Crossplane v1.20.11's Composition,
// CompositionRevision, EnvironmentConfig and CompositeResourceDefinition CRDs.
func CrossplaneCRDs() ([]*unstructured.Unstructured, error) {
	return embeddedCRDs("testdata/crossplane-v1.20.11")
}

// CrossplaneV2CRDs returns Crossplane v2.3.4's CRDs of the objects a v2
// platform holds: CompositeResourceDefinition (v1 and v2, with the CEL
// rules that refuse claims in v2), Composition, CompositionRevision and
// EnvironmentConfig (apiextensions.crossplane.io), Usage and ClusterUsage
// (protection.crossplane.io), and Function, Provider, Configuration and
// DeploymentRuntimeConfig (pkg.crossplane.io). Their groups are those of
// CrossplaneCRDs: a server gets one set or the other.
func CrossplaneV2CRDs() ([]*unstructured.Unstructured, error) {
	return embeddedCRDs("testdata/crossplane-" + CrossplaneV2Version)
}

func embeddedCRDs(dir string) ([]*unstructured.Unstructured, error) {
	entries, err := crossplaneCRDs.ReadDir(dir)
	if err != nil {
		return nil, errors.Wrap(err, "cannot read the embedded CRDs")
	}
	out := make([]*unstructured.Unstructured, 0, len(entries))
	for _, e := range entries {
		data, err := crossplaneCRDs.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return nil, errors.Wrapf(err, "cannot read %q", e.Name())
		}
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(data, &u.Object); err != nil {
			return nil, errors.Wrapf(err, "cannot parse %q", e.Name())
		}
		out = append(out, u)
	}
	return out, nil
}

// Client returns a dynamic client and a discovery-backed RESTMapper acting as
// user.
func (s *Server) Client(user string) (dynamic.Interface, meta.ResettableRESTMapper, error) {
	cfg := s.RESTConfig(user)
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, nil, errors.Wrap(err, "cannot create a discovery client")
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, nil, errors.Wrap(err, "cannot create a dynamic client")
	}
	return dyn, restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc)), nil
}

func (s *Server) adminClient() (dynamic.Interface, meta.ResettableRESTMapper, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.admin == nil {
		dyn, m, err := s.Client(Admin)
		if err != nil {
			return nil, nil, err
		}
		s.admin, s.mapper = dyn, m
	}
	return s.admin, s.mapper, nil
}

// Create creates objs in order as Admin. An object's status is written
// through the status subresource when creating it dropped the status.
func (s *Server) Create(ctx context.Context, objs ...*unstructured.Unstructured) error {
	dyn, _, err := s.adminClient()
	if err != nil {
		return err
	}
	for _, o := range objs {
		gvk := o.GroupVersionKind()
		m, err := s.Mapping(gvk)
		if err != nil {
			return errors.Wrapf(err, "cannot map %s", gvk)
		}
		ri := resourceFor(dyn, m, o.GetNamespace())
		created, err := ri.Create(ctx, o, metav1.CreateOptions{})
		if err != nil {
			return errors.Wrapf(err, "cannot create %s %q", gvk.Kind, name(o))
		}
		want, ok := o.Object["status"]
		if !ok || equality.Semantic.DeepEqual(want, created.Object["status"]) {
			continue
		}
		created.Object["status"] = want
		if _, err := ri.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return errors.Wrapf(err, "cannot write the status of %s %q", gvk.Kind, name(o))
		}
	}
	return nil
}

func resourceFor(dyn dynamic.Interface, m *meta.RESTMapping, namespace string) dynamic.ResourceInterface {
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return dyn.Resource(m.Resource).Namespace(namespace)
	}
	return dyn.Resource(m.Resource)
}

func name(o *unstructured.Unstructured) string {
	if o.GetNamespace() == "" {
		return o.GetName()
	}
	return o.GetNamespace() + "/" + o.GetName()
}

// InstallCRDs creates crds and waits until each is established and served.
func (s *Server) InstallCRDs(ctx context.Context, crds ...*unstructured.Unstructured) error {
	if err := s.Create(ctx, crds...); err != nil {
		return err
	}
	return s.WaitForCRDs(ctx, crds...)
}

// WaitForCRDs waits until each of the created crds is established and
// served.
func (s *Server) WaitForCRDs(ctx context.Context, crds ...*unstructured.Unstructured) error {
	dyn, mapper, err := s.adminClient()
	if err != nil {
		return err
	}
	gvr := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	for _, c := range crds {
		if err := waitFor(ctx, func() (bool, error) {
			got, err := dyn.Resource(gvr).Get(ctx, c.GetName(), metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			conds, _, _ := unstructured.NestedSlice(got.Object, "status", "conditions")
			for _, cond := range conds {
				m, _ := cond.(map[string]any)
				if m["type"] == "Established" && m["status"] == "True" {
					return true, nil
				}
			}
			return false, nil
		}); err != nil {
			return errors.Wrapf(err, "CRD %q is not established", c.GetName())
		}
		group, _, _ := unstructured.NestedString(c.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(c.Object, "spec", "names", "kind")
		if err := waitFor(ctx, func() (bool, error) {
			mapper.Reset()
			_, err := mapper.RESTMapping(schema.GroupKind{Group: group, Kind: kind})
			return err == nil, nil
		}); err != nil {
			return errors.Wrapf(err, "CRD %q is not served", c.GetName())
		}
	}
	return nil
}

// InstallCrossplaneCRDs installs CrossplaneCRDs.
func (s *Server) InstallCrossplaneCRDs(ctx context.Context) error {
	crds, err := CrossplaneCRDs()
	if err != nil {
		return err
	}
	return s.InstallCRDs(ctx, crds...)
}

// InstallCrossplaneV2CRDs installs CrossplaneV2CRDs, on a server without
// CrossplaneCRDs (the names are the same).
func (s *Server) InstallCrossplaneV2CRDs(ctx context.Context) error {
	crds, err := CrossplaneV2CRDs()
	if err != nil {
		return err
	}
	return s.InstallCRDs(ctx, crds...)
}

// Mapping returns how the server serves gvk, rereading discovery once when
// it does not know it yet. Its error is a no-match error
// (meta.IsNoMatchError) when the server does not serve gvk.
func (s *Server) Mapping(gvk schema.GroupVersionKind) (*meta.RESTMapping, error) {
	_, mapper, err := s.adminClient()
	if err != nil {
		return nil, err
	}
	m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if meta.IsNoMatchError(err) {
		mapper.Reset()
		m, err = mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	}
	return m, err
}

// DryRunCreate asks the server, as Admin, to create o without persisting it
// (dryRun=All) and with strict field validation: every admission and
// validation step runs, the schema's CEL rules included, and a field the
// schema does not know is an error instead of being pruned. A namespaced
// object without a namespace goes to namespace "default". The error is the
// server's answer (an *errors.StatusError from k8s.io/apimachinery when the
// server refused it), or a no-match error when the server does not serve
// o's kind.
func (s *Server) DryRunCreate(ctx context.Context, o *unstructured.Unstructured) error {
	dyn, _, err := s.adminClient()
	if err != nil {
		return err
	}
	m, err := s.Mapping(o.GroupVersionKind())
	if err != nil {
		return err
	}
	ns := o.GetNamespace()
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	_, err = resourceFor(dyn, m, ns).Create(ctx, o, metav1.CreateOptions{
		DryRun:          []string{metav1.DryRunAll},
		FieldValidation: metav1.FieldValidationStrict,
	})
	return err
}

func waitFor(ctx context.Context, done func() (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		ok, err := done()
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			if err != nil {
				return errors.Wrap(err, "timed out")
			}
			return errors.Wrap(ctx.Err(), "timed out")
		case <-time.After(50 * time.Millisecond):
		}
	}
}
