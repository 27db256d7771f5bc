"""The HTTP service (`citesynth serve`): API, server-sent events, the web page."""

from citesynth.service.app import create_app
from citesynth.service.config import ServiceConfig

__all__ = ["ServiceConfig", "create_app"]
