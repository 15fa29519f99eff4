package kubetest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Lines as kube-apiserver v1.34 writes them with --audit-log-format json
// (trimmed to the fields the harness reads, plus a few it ignores).
const auditLog = `{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"1","stage":"ResponseComplete","requestURI":"/apis/apiextensions.crossplane.io/v1/compositions?limit=250","verb":"list","user":{"username":"reader","groups":["xpmigrate:readers","system:authenticated"]},"objectRef":{"resource":"compositions","apiGroup":"apiextensions.crossplane.io","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":200}}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"2","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/a/secrets/s","verb":"get","user":{"username":"reader"},"objectRef":{"resource":"secrets","namespace":"a","name":"s","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":403}}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"3","stage":"ResponseComplete","requestURI":"/apis/example.org/v1/buckets/b?dryRun=All","verb":"patch","user":{"username":"reader"},"objectRef":{"resource":"buckets","name":"b","apiGroup":"example.org","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":403}}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"4","stage":"ResponseComplete","requestURI":"/apis/example.org/v1/buckets","verb":"create","user":{"username":"admin"},"responseStatus":{"metadata":{},"code":201}}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"5","stage":"ResponseStarted","requestURI":"/apis/example.org/v1/buckets?watch=true","verb":"watch","user":{"username":"reader"}}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"5","stage":"ResponseComplete","requestURI":"/apis/example.org/v1/buckets?watch=true","verb":"watch","user":{"username":"reader"},"responseStatus":{"metadata":{},"code":200}}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"6","stage":"ResponseComplete","requestURI":"/api/v1/names`

func TestAuditLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	if err := os.WriteFile(path, []byte(auditLog), 0o600); err != nil {
		t.Fatal(err)
	}
	events, err := readAuditLog(path)
	if err != nil {
		t.Fatalf("readAuditLog(): %v", err)
	}
	cases := map[string]struct {
		reason string
		got    any
		want   any
	}{
		"Violations": {
			reason: "Every completed request of the user whose verb is not get or list is a violation, refused or not, dry run or not; a half-written last line and the ResponseStarted stage are skipped.",
			got:    ReadOnlyViolations(events, Reader),
			want: []string{
				"reader patch /apis/example.org/v1/buckets/b?dryRun=All (403)",
				"reader watch /apis/example.org/v1/buckets?watch=true (200)",
			},
		},
		"OtherUsersWritesAreNotTheReaders": {
			reason: "The admin's create is not the reader's.",
			got:    ReadOnlyViolations(events, "nobody"),
			want:   []string(nil),
		},
		"Requests": {
			reason: "Requests counts each completed request once, by verb.",
			got:    Requests(events, Reader),
			want:   map[string]int{"get": 1, "list": 1, "patch": 1, "watch": 1},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got); diff != "" {
				t.Errorf("%s\n-want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
