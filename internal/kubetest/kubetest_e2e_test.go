//go:build e2e

package kubetest

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
)

var server *Server

func TestMain(m *testing.M) {
	ctx := context.Background()
	s, err := Start(ctx, Options{Users: []User{{Name: "nobody"}}})
	if err != nil {
		println("kubetest: " + err.Error())
		os.Exit(1)
	}
	server = s
	code := m.Run()
	if err := s.Stop(); err != nil {
		println("kubetest: " + err.Error())
		code = 1
	}
	os.Exit(code)
}

func composition(name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1",
		"kind":       "Composition",
		"metadata":   map[string]any{"name": name},
		"spec": map[string]any{
			"compositeTypeRef": map[string]any{"apiVersion": "example.org/v1alpha1", "kind": "XThing"},
			"resources": []any{map[string]any{
				"name": "a",
				"base": map[string]any{"apiVersion": "example.org/v1", "kind": "Thing"},
			}},
		},
	}}
}

var compositions = schema.GroupVersionResource{Group: "apiextensions.crossplane.io", Version: "v1", Resource: "compositions"}

func TestServer(t *testing.T) {
	ctx := context.Background()
	if err := server.InstallCrossplaneCRDs(ctx); err != nil {
		t.Fatalf("InstallCrossplaneCRDs(): %v", err)
	}
	if err := server.Create(ctx, composition("legacy")); err != nil {
		t.Fatalf("Create(): %v", err)
	}

	clientFor := func(t *testing.T, user string) dynamic.Interface {
		t.Helper()
		cfg, err := clientcmd.BuildConfigFromFlags("", server.Kubeconfig(user))
		if err != nil {
			t.Fatalf("BuildConfigFromFlags(%q): %v", server.Kubeconfig(user), err)
		}
		dyn, err := dynamic.NewForConfig(cfg)
		if err != nil {
			t.Fatalf("dynamic.NewForConfig(): %v", err)
		}
		return dyn
	}

	t.Run("ReaderReadsWithServerDefaults", func(t *testing.T) {
		got, err := clientFor(t, Reader).Resource(compositions).Get(ctx, "legacy", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("Get(): %v", err)
		}
		// The CRD's default for spec.mode is applied by the API server.
		mode, _, _ := unstructured.NestedString(got.Object, "spec", "mode")
		if diff := cmp.Diff("Resources", mode); diff != "" {
			t.Errorf("the reader's kubeconfig reads a Composition with the server's default spec.mode: -want, +got:\n%s", diff)
		}
	})
	t.Run("ReaderCannotWrite", func(t *testing.T) {
		_, err := clientFor(t, Reader).Resource(compositions).Create(ctx, composition("by-reader"), metav1.CreateOptions{})
		if !kerrors.IsForbidden(err) {
			t.Errorf("Create() as reader: want forbidden, got %v", err)
		}
	})
	t.Run("ReaderCannotWatch", func(t *testing.T) {
		w, err := clientFor(t, Reader).Resource(compositions).Watch(ctx, metav1.ListOptions{})
		if w != nil {
			w.Stop()
		}
		if !kerrors.IsForbidden(err) {
			t.Errorf("Watch() as reader: want forbidden, got %v", err)
		}
	})
	t.Run("UnboundUserIsForbidden", func(t *testing.T) {
		_, err := clientFor(t, "nobody").Resource(compositions).List(ctx, metav1.ListOptions{})
		if !kerrors.IsForbidden(err) {
			t.Errorf("List() as nobody: want forbidden, got %v", err)
		}
	})
	t.Run("AuditLogNamesEveryWriteAttempt", func(t *testing.T) {
		events, err := server.AuditEvents(ctx)
		if err != nil {
			t.Fatalf("AuditEvents(): %v", err)
		}
		// The forbidden create and watch above are writes the audit log
		// records although the server refused them.
		want := []string{
			"reader create /apis/apiextensions.crossplane.io/v1/compositions (403)",
			"reader watch /apis/apiextensions.crossplane.io/v1/compositions?watch=true (403)",
		}
		if diff := cmp.Diff(want, ReadOnlyViolations(events, Reader)); diff != "" {
			t.Errorf("ReadOnlyViolations(): -want, +got:\n%s", diff)
		}
		if got := Requests(events, Reader)["get"]; got == 0 {
			t.Errorf("Requests(reader)[get] = 0: the reader's get is not in the audit log")
		}
	})
}
