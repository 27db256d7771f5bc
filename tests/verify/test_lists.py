"""Parallel list items: a claim must say of an item what that item says."""

from __future__ import annotations

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.lists import misattributed, parallel_lists

TIMEOUTS = """Timeouts come in four kinds.

* The **connect** timeout is the longest time to wait until a socket connection to the
  requested host is established. Past it, a `ConnectTimeout` exception is raised.
* The **read** timeout is the longest time to wait for a chunk of data to be received.
* The **write** timeout is the longest time to wait for a chunk of data to be sent.
* The **pool** timeout is the longest time to wait for acquiring a connection from the
  connection pool.
"""

OPTIONS = """The transport takes options:

- `script_name` mounts the application at a subpath.
- `remote_addr` sets the client address used for requests.
- `root_path` sets the root path of the application.
"""


def test_a_list_is_its_items_at_one_indentation() -> None:
    nested = "- `alpha_one` does this\n  - `inner_one` nested\n- `beta_two` does that\n"
    (items,) = parallel_lists(nested)
    assert [item.names for item in items] == [("alpha_one",), ("beta_two",)]
    assert parallel_lists("- `only_item` alone\n\nSome text.") == ()


def test_a_claim_stating_a_siblings_description_is_misattributed() -> None:
    claim = "The pool timeout caps the wait until a socket connection to the host is established."
    assert misattributed(claim, [TIMEOUTS]) == (("pool", "connect"),)
    swapped = "To mount the application at a subpath, set remote_addr."
    assert misattributed(swapped, [OPTIONS]) == (("remote_addr", "script_name"),)


def test_a_claim_stating_its_own_item_is_not() -> None:
    right = "The pool timeout limits how long to wait to acquire a connection from the pool."
    assert misattributed(right, [TIMEOUTS]) == ()
    assert misattributed("To mount the application at a subpath, set script_name.", [OPTIONS]) == ()


def test_names_that_do_not_tell_an_item() -> None:
    # two items named: a comparison, not a misattribution
    both = "Unlike the connect timeout, the pool timeout waits for a socket connection."
    assert misattributed(both, [TIMEOUTS]) == ()
    # a name the passage also writes outside the list is no item's alone
    outside = TIMEOUTS + "\nThe pool is shared by every request of a client.\n"
    claim = "The pool timeout caps the wait until a socket connection to the host is established."
    assert misattributed(claim, [outside]) == ()
    # a single lower-case word in code is too common to tell an item by
    plain = "- `name` sets the display name of the app.\n- `url` sets the address of the server.\n"
    assert misattributed("The name is the address of the server it calls.", [plain]) == ()


def test_the_verifiers_give_the_reason() -> None:
    claim = "The pool timeout caps the wait until a socket connection to the host is established."
    (verdict,) = LexicalVerifier().verify_now([Check(claim, [TIMEOUTS])])
    assert verdict.label != "supported"
    assert "the source says this of connect, not of pool" in verdict.reasons
