// Package crossplanee2e is the real-Crossplane e2e tier: the tests behind the
// build tag e2e_crossplane run Crossplane's own controllers, not xpmigrate's
// emulation of them, and compare what they do with what xpmigrate says.
//
// A test platform is etcd and kube-apiserver (internal/kubetest),
// kube-controller-manager with only its garbage collector and namespace
// controllers, Crossplane core (v1.20.11, later v2.3.4 on the same etcd) as a
// plain process with webhooks off and the External package runtime,
// function-patch-and-transform served over mTLS behind a hand-made, paused
// FunctionRevision, and the test provider (./provider, a module of its own),
// whose external client writes to a fake cloud (./fakecloud) that the tests
// read. hack/crossplane.sh builds the programs once into the cache beside
// kube-apiserver; `make e2e-crossplane` builds them and runs:
//
//	go test -tags e2e_crossplane -count=1 ./e2e/crossplane/
//
// docs/test-tiers.md says what this tier proves and what it does not.
package crossplanee2e
