// SPDX-License-Identifier: GPL-2.0
/*
 * kjump_test_panic: a test-only driver for the QEMU scenarios of
 * kexec-tools-kjump, built into the "testhooks" kernel (see the
 * "# test-source:" line of kernel-companion/configs/testhooks.config).  It
 * is not part of the kernel series.
 *
 * It registers two platform devices whose system sleep callbacks panic or
 * fail on request and count what the PM core called, so that a scenario
 * can make a driver panic or refuse while a kexec jump freezes or thaws a
 * kernel, and check how the devices were resumed.
 *
 * Parameters, /sys/module/kjump_test_panic/parameters/NAME:
 *   panic_at  "freeze" or "restore": the next such callback panics
 *   fail_at   "freeze": device 0's freeze fails with -EBUSY; the PM core
 *             freezes device 1 first (it was registered last), so that
 *             one must be thawed again
 *   frozen    devices frozen now (read-only)
 *   thaws     thaw callbacks so far: PMSG_THAW and PMSG_RECOVER
 *   restores  restore callbacks so far: PMSG_RESTORE
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/panic.h>
#include <linux/platform_device.h>
#include <linux/pm.h>
#include <linux/smp.h>
#include <linux/string.h>

#define KTP_NAME "kjump_test_panic"
#define KTP_DEVICES 2

static char panic_at[16] = "none";
module_param_string(panic_at, panic_at, sizeof(panic_at), 0644);
static char fail_at[16] = "none";
module_param_string(fail_at, fail_at, sizeof(fail_at), 0644);

/* the PM core calls these callbacks one device at a time (not async) */
static int frozen;
module_param(frozen, int, 0444);
static int thaws;
module_param(thaws, int, 0444);
static int restores;
module_param(restores, int, 0444);

static void ktp_maybe_panic(struct device *dev, const char *phase)
{
	if (sysfs_streq(panic_at, phase))
		panic(KTP_NAME ": %s of %s on CPU %d\n", phase, dev_name(dev),
		      raw_smp_processor_id());
}

static int ktp_freeze(struct device *dev)
{
	ktp_maybe_panic(dev, "freeze");
	if (to_platform_device(dev)->id == 0 && sysfs_streq(fail_at, "freeze")) {
		dev_info(dev, "refusing to freeze (fail_at=freeze)\n");
		return -EBUSY;
	}
	frozen++;
	return 0;
}

static int ktp_thaw(struct device *dev)
{
	frozen--;
	thaws++;
	return 0;
}

static int ktp_restore(struct device *dev)
{
	ktp_maybe_panic(dev, "restore");
	frozen--;
	restores++;
	return 0;
}

static const struct dev_pm_ops ktp_pm_ops = {
	.freeze = ktp_freeze,
	.thaw = ktp_thaw,
	.restore = ktp_restore,
};

static int ktp_probe(struct platform_device *pdev)
{
	return 0;
}

static struct platform_driver ktp_driver = {
	.probe = ktp_probe,
	.driver = {
		.name = KTP_NAME,
		.pm = &ktp_pm_ops,
	},
};

static int __init ktp_init(void)
{
	struct platform_device *pdev;
	int error, i;

	error = platform_driver_register(&ktp_driver);
	if (error)
		return error;
	for (i = 0; i < KTP_DEVICES; i++) {
		pdev = platform_device_register_simple(KTP_NAME, i, NULL, 0);
		if (IS_ERR(pdev))
			return PTR_ERR(pdev);
	}
	return 0;
}
device_initcall(ktp_init);
