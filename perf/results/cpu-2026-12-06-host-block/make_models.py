import os, sys, time
sys.path.insert(0, "/work/wt-cpu/perf")
import numpy as np
import make_predict_model as mpm
import make_predict_suite_models as s
work = "/tmp/hb"
s.ROWS = 200_000
s.write_inputs(work)
t0 = time.time()
if not os.path.exists(work + "/softprob_999.ubj"):
    mpm.train().save_model(work + "/softprob_999.ubj"); print("softprob", time.time() - t0, flush=True)
t0 = time.time()
if not os.path.exists(work + "/d8_500.ubj"):
    s.train_d8_500().save_model(work + "/d8_500.ubj"); print("d8_500", time.time() - t0, flush=True)
