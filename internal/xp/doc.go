// Package xp is the vocabulary xpmigrate shares with Crossplane: the
// annotation and label keys, the metadata fields the API server populates,
// the API groups and versions, the function packages and their default
// names, the rule by which Crossplane names a package it installs, the
// object form of its references, and the escaping of GitHub workflow
// commands. Every package that names one of these things takes it from
// here, so that one spelling serves them all.
//
// It is a leaf: it imports no package of this module.
package xp
