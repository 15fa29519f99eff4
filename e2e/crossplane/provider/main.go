// Command provider is the test provider of the real-Crossplane e2e tier: a
// Crossplane provider built on crossplane-runtime's managed reconciler (the
// one every real provider runs), whose external client talks to a fake cloud
// directory (e2e/crossplane/fakecloud) instead of a cloud API. Pause,
// deletion policies, management policies, external names, finalizers and
// connection Secrets therefore behave as a real provider's do, and every
// external Observe, Create, Update and Delete is recorded for the tests.
//
// It serves any kinds it is given, each as an unstructured managed resource:
// a kind of a group with ".m." is a namespaced Crossplane v2 managed resource,
// any other a cluster-scoped v1-style one. Their CRDs are the tests' (it
// installs none). It runs out of cluster, against the API server of
// $KUBECONFIG:
//
//	KUBECONFIG=admin.kubeconfig provider --cloud DIR \
//	  --kind Bucket.storage.fake.xpmigrate.io/v1alpha1 \
//	  --kind Bucket.storage.fake.m.xpmigrate.io/v1alpha1
//
// A Create names the external resource by the crossplane.io/external-name
// the managed resource already has (one its Composition sets), else gives
// it a new ID (kind-<8 hex digits>) and sets that as the external name, as
// a cloud that names its resources does; Observe reports the resource up to date when its stored
// parameters equal spec.forProvider, and writes them, with the ID, to
// status.atProvider.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpunstructured "github.com/crossplane/crossplane-runtime/v2/pkg/resource/unstructured"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
	"github.com/go-logr/logr/funcr"
	"github.com/pkg/errors"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/xpmigrate/xpmigrate/e2e/crossplane/fakecloud"
)

type kinds []schema.GroupVersionKind

func (k *kinds) String() string { return fmt.Sprint(*k) }

// Set parses Kind.group/version.
func (k *kinds) Set(s string) error {
	gv, version, ok := strings.Cut(s, "/")
	kind, group, ok2 := strings.Cut(gv, ".")
	if !ok || !ok2 || version == "" || kind == "" || group == "" {
		return errors.Errorf("cannot parse kind %q: want Kind.group/version", s)
	}
	*k = append(*k, schema.GroupVersionKind{Group: group, Version: version, Kind: kind})
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "provider: "+err.Error())
		os.Exit(1)
	}
}

func run() error {
	var ks kinds
	cloudDir := flag.String("cloud", "", "the fake cloud's directory")
	poll := flag.Duration("poll", 5*time.Second, "how often a managed resource is observed when nothing changes")
	debug := flag.Bool("debug", false, "log every reconcile")
	flag.Var(&ks, "kind", "a kind to serve, Kind.group/version (repeatable)")
	flag.Parse()
	if *cloudDir == "" || len(ks) == 0 {
		flag.Usage()
		os.Exit(2)
	}

	verbosity := 0
	if *debug {
		verbosity = 1
	}
	zl := funcr.New(func(prefix, args string) { fmt.Fprintln(os.Stderr, prefix, args) }, funcr.Options{Verbosity: verbosity})
	ctrl.SetLogger(zl)
	log := logging.NewLogrLogger(zl)

	cloud, err := fakecloud.Open(*cloudDir)
	if err != nil {
		return err
	}
	defer func() { _ = cloud.Close() }()

	cfg, err := ctrl.GetConfig()
	if err != nil {
		return errors.Wrap(err, "cannot read the kubeconfig")
	}
	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		return errors.Wrap(err, "cannot build the scheme")
	}
	for _, gvk := range ks {
		if namespaced(gvk) {
			scheme.AddKnownTypeWithName(gvk, &modern{})
		} else {
			scheme.AddKnownTypeWithName(gvk, &legacy{})
		}
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		return errors.Wrap(err, "cannot create the controller manager")
	}
	// One controller per kind, as a real provider runs: the API server
	// serves every object of a kind at each of its versions, so the
	// first version given sees them all.
	served := map[schema.GroupKind]bool{}
	for _, gvk := range ks {
		if served[gvk.GroupKind()] {
			continue
		}
		served[gvk.GroupKind()] = true
		if err := setup(mgr, gvk, cloud, *poll, log); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return errors.Wrap(mgr.Start(ctx), "cannot run the controller manager")
}

func namespaced(gvk schema.GroupVersionKind) bool {
	return strings.Contains("."+gvk.Group+".", ".m.")
}

func setup(mgr manager.Manager, gvk schema.GroupVersionKind, cloud *fakecloud.Cloud, poll time.Duration, log logging.Logger) error {
	name := managed.ControllerName(strings.ToLower(gvk.Kind + "." + gvk.Group))
	km := kindManager{Manager: mgr, client: kindClient{Client: xpunstructured.NewClient(mgr.GetClient()), gvk: gvk}}
	r := managed.NewReconciler(km, resource.ManagedKind(gvk),
		managed.WithExternalConnector(connector{cloud: cloud}),
		managed.WithManagementPolicies(),
		managed.WithPollInterval(poll),
		managed.WithLogger(log.WithValues("controller", name)),
		managed.WithRecorder(event.NewAPIRecorder(mgr.GetEventRecorderFor(name))), //nolint:staticcheck // crossplane-runtime's recorder takes the client-go recorder
	)
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return errors.Wrapf(ctrl.NewControllerManagedBy(mgr).Named(name).For(u).Complete(r), "cannot set up the controller of %s", gvk)
}

// kindManager hands the managed reconciler of one kind a client that knows
// the kind: the reconciler creates its empty managed resource from the
// scheme, where an unstructured one carries no kind until it is read.
type kindManager struct {
	manager.Manager
	client client.Client
}

func (m kindManager) GetClient() client.Client { return m.client }

type kindClient struct {
	client.Client
	gvk schema.GroupVersionKind
}

func (c kindClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if w, ok := obj.(xpunstructured.Wrapper); ok && w.GetUnstructured().GetKind() == "" {
		w.GetUnstructured().SetGroupVersionKind(c.gvk)
	}
	return c.Client.Get(ctx, key, obj, opts...)
}

// connector connects every managed resource to the one fake cloud; the
// provider config reference is not read (there is no credential to load).
type connector struct {
	cloud *fakecloud.Cloud
}

func (c connector) Connect(_ context.Context, _ resource.Managed) (managed.ExternalClient, error) {
	return external(c), nil
}

type external struct {
	cloud *fakecloud.Cloud
}

type forProviderer interface {
	forProvider() map[string]any
}

func ref(mg resource.Managed) fakecloud.Ref {
	gvk := mg.GetObjectKind().GroupVersionKind()
	return fakecloud.Ref{
		APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind,
		Namespace: mg.GetNamespace(), Name: mg.GetName(), UID: string(mg.GetUID()),
	}
}

func params(mg resource.Managed) map[string]any {
	if f, ok := mg.(forProviderer); ok {
		return f.forProvider()
	}
	return nil
}

func (e external) Observe(_ context.Context, mg resource.Managed) (managed.ExternalObservation, error) {
	id := meta.GetExternalName(mg)
	if id == "" {
		return managed.ExternalObservation{}, nil
	}
	ext, found, err := e.cloud.Observe(ref(mg), id)
	if err != nil || !found {
		return managed.ExternalObservation{}, err
	}
	if w, ok := mg.(xpunstructured.Wrapper); ok {
		at := map[string]any{}
		for k, v := range ext.Params {
			at[k] = v
		}
		at["id"] = ext.ID
		if err := unstructured.SetNestedField(w.GetUnstructured().Object, runtime.DeepCopyJSONValue(at), "status", "atProvider"); err != nil {
			return managed.ExternalObservation{}, errors.Wrap(err, "cannot set status.atProvider")
		}
	}
	mg.SetConditions(xpv2.Available())
	return managed.ExternalObservation{
		ResourceExists:    true,
		ResourceUpToDate:  fakecloud.UpToDate(ext, params(mg)),
		ConnectionDetails: managed.ConnectionDetails{"id": []byte(ext.ID)},
	}, nil
}

func (e external) Create(_ context.Context, mg resource.Managed) (managed.ExternalCreation, error) {
	// A name set before the create (by the Composition) names the
	// resource, as a real provider creates a user-named resource.
	id, err := e.cloud.Create(ref(mg), meta.GetExternalName(mg), params(mg))
	if err != nil {
		return managed.ExternalCreation{}, err
	}
	meta.SetExternalName(mg, id)
	return managed.ExternalCreation{ConnectionDetails: managed.ConnectionDetails{"id": []byte(id)}}, nil
}

func (e external) Update(_ context.Context, mg resource.Managed) (managed.ExternalUpdate, error) {
	return managed.ExternalUpdate{}, e.cloud.Update(ref(mg), meta.GetExternalName(mg), params(mg))
}

func (e external) Delete(_ context.Context, mg resource.Managed) (managed.ExternalDelete, error) {
	return managed.ExternalDelete{}, e.cloud.Delete(ref(mg), meta.GetExternalName(mg))
}

func (e external) Disconnect(_ context.Context) error { return nil }
