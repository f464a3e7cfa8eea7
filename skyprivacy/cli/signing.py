"""Signed certificates on the command line: ``--sign KEY`` where a certificate is written,
``verify --public-key KEY`` and ``skyprivacy keygen`` (Ed25519 through the ``sign`` extra;
the signing itself is :func:`skyprivacy.certificate.sign_certificate`).

A signature is a detached file beside the certificate, its name with ``.sig`` added
(``out.cert.json.sig``): the certificate's bytes are signed exactly as written, so the
certificate stays the file ``verify`` always read and any change to it breaks the signature.
"""
from __future__ import annotations

import os

from ..certificate import generate_signing_key, key_fingerprint, sign_certificate
from ..errors import InvalidParameterError, UsageError
from ..io import InputError, OutputFiles, json_bytes, read_bytes
from .context import Context, check_outputs
from .shared import EXIT_OK

#: What a signature file's name adds to its certificate's.
SIGNATURE_SUFFIX = ".sig"


def signature_path(certificate_path: str) -> str:
    """The detached signature of a certificate: its name with ``.sig`` added."""
    return certificate_path + SIGNATURE_SUFFIX


def read_key(path: str, flag: str) -> bytes:
    """The bytes of a PEM key file, checked to be the Ed25519 key ``flag`` needs; one
    InputError line naming the file otherwise."""
    data = read_bytes(path, noun="key file")
    private = flag == "--sign"
    if private != (b"PRIVATE KEY" in data) and b"-----BEGIN" in data:
        raise InputError(f"Key file {path!r} ({flag}) holds a {'public' if private else 'private'}"
                         f" key; {flag} needs the {'private' if private else 'public'} key "
                         f"('skyprivacy keygen' writes both).")
    try:
        sign_certificate(b"", data) if private else key_fingerprint(data)
    except InvalidParameterError as exc:
        raise InputError(f"Key file {path!r} ({flag}): {exc}") from None
    return data


def signature_outputs(args, certificate_path: str | None) -> dict:
    """The signature file among a command's outputs (for :func:`check_outputs`), its key
    read and checked before any work; empty without ``--sign``."""
    if getattr(args, "sign", None) is None:
        return {}
    if certificate_path is None:
        raise UsageError("--sign signs the certificate; give --certificate JSON too")
    read_key(args.sign, "--sign")
    return {"--sign (signature)": signature_path(certificate_path)}


def signed_inputs(args) -> dict:
    """With ``--public-key``: the key, the signature file beside ``--certificate`` and the
    certificate's exact bytes, as a verifier's ``public_key``, ``signature`` and certificate
    take them; empty without it.  A certificate without its signature file is one InputError
    line naming the file."""
    if getattr(args, "public_key", None) is None:
        return {}
    key = read_key(args.public_key, "--public-key")
    try:
        signature = read_bytes(signature_path(args.certificate), noun="signature file")
    except InputError as exc:
        raise InputError(f"{exc} --public-key checks the signature that --sign writes "
                         f"beside the certificate.") from None
    return {"public_key": key, "signature": signature,
            "certificate_bytes": read_bytes(args.certificate, noun="certificate")}


def signed_by_text(certified: dict | None) -> str:
    """How a VERIFIED line says who signed the certificate."""
    if certified and certified.get("signed_by"):
        return f"signed by Ed25519 key {certified['signed_by']}"
    return "unsigned"


def add_certificate(args, out: OutputFiles, path: str, certificate: dict) -> None:
    """Write a certificate, and with ``--sign`` its detached signature of exactly those
    bytes, among the command's outputs."""
    data = json_bytes(certificate)
    out.add(path, data)
    if getattr(args, "sign", None) is not None:
        out.add(signature_path(path), sign_certificate(data, read_key(args.sign, "--sign")))


def cmd_keygen(ctx: Context) -> int:
    """``skyprivacy keygen PRIVATE [--public PUBLIC]``: a new Ed25519 key pair."""
    args = ctx.args
    public_path = args.public or args.private + ".pub"
    check_outputs(args, {"PRIVATE_PEM": args.private, "--public": public_path}, {})
    private, public = generate_signing_key()
    with OutputFiles() as out:
        out.add(args.private, private)
        out.add(public_path, public)
        out.commit()
    os.chmod(args.private, 0o600)  # a private key: its owner's alone
    ctx.emit(f"Ed25519 key {key_fingerprint(public)}: private key {args.private} (keep it "
             f"secret; sign with --sign {args.private}), public key {public_path} (for "
             f"verify --public-key {public_path}).")
    return EXIT_OK
