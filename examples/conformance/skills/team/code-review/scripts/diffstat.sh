#!/bin/sh
git diff --stat "$@"
