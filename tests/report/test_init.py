"""The report facade (skyprivacy/report/__init__.py): the names it exports, each from the
module that defines it (one module per area's page, over the shared page machinery)."""
from skyprivacy import report

EXPORTS = {"render_report", "report_skylines", "skyline_svg", "group_size_svg",  # skyline.py
           "render_rule_report", "tradeoff_svg",  # transparency.py
           "risk_section", "record_risk_svg",  # risk.py
           "anonymization_section"}  # anonymization.py


def test_exports():
    assert set(report.__all__) == EXPORTS
    assert len(report.__all__) == len(EXPORTS)


def test_every_export_comes_from_the_module_that_defines_it(misattributed_exports):
    assert misattributed_exports(report) == []


def test_nothing_but_the_exports_and_the_modules_is_public(unexported_names):
    assert unexported_names(report) == []


def test_every_module_the_docstring_presents_is_the_package_s(public_modules):
    assert public_modules(report) == {"anonymization", "page", "risk", "skyline",
                                      "transparency"}
    for module in public_modules(report):
        assert f":mod:`.{module}`" in report.__doc__
