# -*- coding: utf-8 -*-
# Copyright: specdeploy.sglang contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one definition of each digest the collection takes: canonical JSON, sha256 of bytes, of a text and of a
file, and the hasher for a digest fed in pieces.

Release ids, validation keys, deploy-state files, drift, the deploy key, the env key, the preflight's cache,
the weights' manifests (also hf_fetch.py, which loads this file by its path: the weights role copies it beside
the script on a host) and the secrets file all hash with these. Standard library only, importable without
Ansible, and by path without the collection.
"""
from __future__ import annotations

import hashlib
import json

__metaclass__ = type

CHUNK = 1 << 20
_RAISE = object()


def canonical(obj):
    """Canonical JSON text: sorted keys, no spaces, ASCII (same object, same text)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def hasher():
    """A sha256 to feed in pieces (update, digest, hexdigest): a digest over many files, or a copy hashed as
    it is written."""
    return hashlib.sha256()


def sha256_bytes(data):
    return hashlib.sha256(data).hexdigest()


def sha256_text(text, errors="strict"):
    """sha256 of a text's UTF-8 bytes (errors="surrogateescape": file names as the OS gave them)."""
    return sha256_bytes(text.encode("utf-8", errors))


def sha256_file(path, default=_RAISE):
    """sha256 of a file's bytes (streamed). When it cannot be read: `default` if given, else the OSError."""
    try:
        with open(path, "rb") as handle:
            if hasattr(hashlib, "file_digest"):  # 3.11+: OpenSSL, GIL released per chunk
                return hashlib.file_digest(handle, "sha256").hexdigest()
            digest = hasher()
            for block in iter(lambda: handle.read(CHUNK), b""):
                digest.update(block)
            return digest.hexdigest()
    except OSError:
        if default is _RAISE:
            raise
        return default
