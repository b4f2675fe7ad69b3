#!/usr/bin/env python3
"""The user's script that imports torch and then a compiled extension (a prebuilt wheel's .so, a colleague's build)
from --path.
  python3 import_ext.py --path DIR --module NAME"""
import argparse
import importlib
import sys

import torch

p = argparse.ArgumentParser()
p.add_argument("--path", required=True)
p.add_argument("--module", required=True)
a = p.parse_args()
print(f"torch {torch.__version__}", flush=True)
sys.path.insert(0, a.path)
mod = importlib.import_module(a.module)
print(f"imported {mod.__name__}", flush=True)
